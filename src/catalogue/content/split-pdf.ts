import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of split-pdf (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Split a PDF into separate files by pages or ranges.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

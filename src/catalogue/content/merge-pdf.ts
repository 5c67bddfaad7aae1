import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of merge-pdf (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Combine multiple PDF files.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of protect-pdf (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Add password to PDF.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

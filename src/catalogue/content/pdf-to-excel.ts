import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of pdf-to-excel (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Extract tables to Excel.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of pdf-to-word (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Convert PDF to Word.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

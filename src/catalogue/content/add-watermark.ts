import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of add-watermark (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Stamp text or an image over your pages.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of color-picker (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Pick and copy color codes.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

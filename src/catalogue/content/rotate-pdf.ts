import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of rotate-pdf (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Rotate pages to the right orientation.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

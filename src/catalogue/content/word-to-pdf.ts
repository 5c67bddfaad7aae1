import type { ToolContent } from '../types.ts';
import { ON_DEVICE_PRIVACY } from '../accepts.ts';

/** Detail-page copy of word-to-pdf (spec §3 "Tool info content"). */
export const content: ToolContent = {
  overview: 'Turn Word documents into PDF.',
  features: [],
  usage: [],
  perfectFor: [],
  privacy: ON_DEVICE_PRIVACY,
  whyUse: '',
};

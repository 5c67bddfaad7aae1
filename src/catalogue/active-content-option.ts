/**
 * The option every tool that rewrites a PDF shares: remove the scripts and actions a reader could
 * run by itself or on a click (workers/engine/lib/pdf/active-content.ts). On by default; a client that
 * does not send it gets the safe default.
 */
import type { OptionSpec } from './types.ts';
import { REMOVE_SCRIPTS_OPTION } from '../../shared/active-content-option.ts';

export const REMOVE_SCRIPTS: OptionSpec = {
  kind: 'checkbox',
  name: REMOVE_SCRIPTS_OPTION,
  label: 'Remove scripts and actions',
  default: true,
  help:
    'Takes out JavaScript, actions run on opening, program launches and links to scripts or local files. The ' +
    'result lists what was found.',
};

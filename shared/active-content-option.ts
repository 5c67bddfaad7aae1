/**
 * The name of the option every tool that rewrites a PDF shares: remove the scripts and actions a
 * reader could run by itself or on a click. The catalogue offers it (src/catalogue/active-content-option.ts)
 * and the engines read it (workers/engine/lib/pdf/active-content.ts).
 */
export const REMOVE_SCRIPTS_OPTION = 'removeScripts';

/**
 * The catalogue: one file per tool in src/catalogue/tools/ (its name is the tool's id), found by
 * import.meta.glob like the engines (workers/engine/registry.ts) and the forms
 * (src/tool-ui/forms/registry.ts). Every list, route, menu, form and /api endpoint reads from here.
 */
import { buildCatalogue, type ToolModules } from './build.ts';
import type { FileToolEntry } from './types.ts';

export type { ToolSection } from './build.ts';

export const { tools, fileTools, utilityTools, sections, popularTools, heroTiles, findTool, getTool } = buildCatalogue(
  import.meta.glob<ToolModules[string]>('./tools/*.ts', { eager: true }),
);

/** The form values a tool starts with: every option's default. */
export function defaultValues(tool: FileToolEntry): Record<string, string | number | boolean> {
  return Object.fromEntries(tool.options.map((o) => [o.name, o.default]));
}

import type { UtilityToolEntry } from '../catalogue/types.ts';

/** The utility frame: the tool's own form (src/tool-ui/forms/<id>.tsx) once it exists. */
export function UtilityForm({ tool }: { tool: UtilityToolEntry }) {
  if (!tool.formReady) return <p>Tool interface coming soon</p>;
  return <p>Tool interface coming soon</p>;
}

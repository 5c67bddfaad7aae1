import { Suspense } from 'react';
import type { UtilityToolEntry } from '../catalogue/types.ts';
import { utilityForm } from './forms/registry.ts';

/** The utility frame: the tool's own form (src/tool-ui/forms/<id>.tsx) once it exists. */
export function UtilityForm({ tool }: { tool: UtilityToolEntry }) {
  const Form = tool.formReady ? utilityForm(tool.id) : undefined;
  if (!Form) return <p>Tool interface coming soon</p>;
  return (
    <Suspense fallback={<p aria-busy="true">Loading…</p>}>
      <Form tool={tool} />
    </Suspense>
  );
}

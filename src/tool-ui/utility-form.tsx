import { Suspense } from 'react';
import type { UtilityToolEntry } from '../catalogue/types.ts';
import { utilityForm } from './forms/registry.ts';

/** The utility frame: the tool's own form, src/tool-ui/forms/<id>.tsx (the catalogue test checks each has one). */
export function UtilityForm({ tool }: { tool: UtilityToolEntry }) {
  const Form = utilityForm(tool.id);
  if (!Form) throw new Error(`No form for ${tool.id}: add src/tool-ui/forms/${tool.id}.tsx`);
  return (
    <Suspense fallback={<p aria-busy="true">Loading…</p>}>
      <Form tool={tool} />
    </Suspense>
  );
}

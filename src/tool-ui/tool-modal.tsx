import type { ToolEntry } from '../catalogue/types.ts';
import { FileToolForm } from './file-tool-form.tsx';
import { UtilityForm } from './utility-form.tsx';

/** The tool dialog: title, close button, and the tool's form (spec §2). Keyed by tool id by callers, so changing tool resets everything. */
export function ToolModal({ tool, onClose }: { tool: ToolEntry; onClose: () => void }) {
  return (
    <div className="modal-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="tool-modal-title" className="modal">
        <header>
          <h2 id="tool-modal-title">{tool.name}</h2>
          <button type="button" aria-label="Close" onClick={onClose}>×</button>
        </header>
        {tool.kind === 'file' ? <FileToolForm tool={tool} /> : <UtilityForm tool={tool} />}
      </div>
    </div>
  );
}

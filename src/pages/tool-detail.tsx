import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { findTool } from '../catalogue/index.ts';
import { ToolModal } from '../tool-ui/tool-modal.tsx';

/** /tools/:toolId — the tool's detail page; an unknown id redirects to /tools (spec §2). */
export function ToolDetailPage() {
  const { toolId } = useParams();
  const tool = findTool(toolId);
  const [open, setOpen] = useState(false);
  if (!tool) return <Navigate to="/tools" replace />;
  return (
    <article>
      <h1>{tool.name}</h1>
      <button type="button" onClick={() => setOpen(true)}>{tool.category === 'utility' && tool.kind === 'utility' ? 'Get Started' : 'Upload Files'}</button>
      <p>{tool.content.overview}</p>
      {open && <ToolModal key={tool.id} tool={tool} onClose={() => setOpen(false)} />}
    </article>
  );
}

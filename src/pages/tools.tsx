import { useNavigate, useParams } from 'react-router';
import { getTool } from '../catalogue/index.ts';
import { toolsPageGroups } from '../catalogue/sections.ts';
import { findTool } from '../catalogue/index.ts';
import { ToolModal } from '../tool-ui/tool-modal.tsx';

/** /tools: every tool by group; a card opens the tool's modal (spec §2 "Tools page"). */
export function ToolsPage() {
  const navigate = useNavigate();
  const { toolId } = useParams();
  const open = findTool(toolId);
  return (
    <section>
      <h1>Explore All Tools</h1>
      {toolsPageGroups.map((group) => (
        <section key={group.title} aria-labelledby={`group-${group.title}`}>
          <h2 id={`group-${group.title}`}>{group.title}</h2>
          <ul>
            {group.ids.map((id) => (
              <li key={id}>
                <button type="button" onClick={() => navigate(`/tools/${id}`)}>{getTool(id).name}</button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {open && <ToolModal tool={open} onClose={() => navigate('/tools')} />}
    </section>
  );
}

import { getTool, tools } from '../catalogue/index.ts';
import { toolsPageGroups } from '../catalogue/sections.ts';
import { usePageTitle } from '../app/page-title.ts';
import { ToolCard } from './tool-card.tsx';

/** /tools: "Explore All Tools", the five groups of spec §2; a card opens the tool's page with its modal. */
export function ToolsPage() {
  usePageTitle('All tools');
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Explore All Tools</h1>
        <p className="lead">
          {tools.length} tools for PDFs, images and everyday numbers. Every one runs in your browser: pick a tool, choose
          your files, and get the result without uploading anything.
        </p>
      </header>
      {toolsPageGroups.map((group, index) => (
        <section key={group.title} className="tool-group" aria-labelledby={`group-${index}`}>
          <h2 id={`group-${index}`}>
            {group.title} <span className="count">{group.ids.length}</span>
          </h2>
          <ul className="card-grid">
            {group.ids.map((id) => (
              <li key={id}>
                <ToolCard tool={getTool(id)} openModal />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

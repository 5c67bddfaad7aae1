import { sections, tools } from '../catalogue/index.ts';
import { usePageTitle } from '../app/page-title.ts';
import { ToolCard } from './tool-card.tsx';

/** /tools: "Explore All Tools", the tools in their page groups; a card opens the tool's page with its modal. */
export function ToolsPage() {
  usePageTitle('All tools');
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Explore All Tools</h1>
        <p className="lead">
          {tools.length} tools for PDFs, images and everyday numbers. Every one runs in your browser: pick a tool,
          choose your files, and get the result without uploading anything.
        </p>
      </header>
      {sections.toolsPage.map((group, index) => (
        <section key={group.title} className="tool-group" aria-labelledby={`group-${index}`}>
          <h2 id={`group-${index}`}>
            {group.title} <span className="count">{group.tools.length}</span>
          </h2>
          <ul className="card-grid">
            {group.tools.map((tool) => (
              <li key={tool.id}>
                <ToolCard tool={tool} openModal />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

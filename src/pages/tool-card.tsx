import { Link } from 'react-router';
import type { ToolEntry } from '../catalogue/types.ts';
import { Icon, toneClass } from '../app/icon.tsx';

/** Location state that makes the tool detail page open its modal at once (a card on /tools sets it). */
export interface ToolLocationState {
  open?: boolean;
}

/** The state of every link that opens a tool (cards, header menu, phone menu). */
export const OPEN_TOOL: ToolLocationState = { open: true };

/**
 * A tool as a card: icon, name, description. Like every link to a tool (header menu, phone menu),
 * it opens the tool's window on arrival; closing it leaves the detail page for people who read first.
 */
export function ToolCard({ tool, openModal = true, cta }: { tool: ToolEntry; openModal?: boolean; cta?: string }) {
  return (
    <Link
      to={`/tools/${tool.id}`}
      state={openModal ? OPEN_TOOL : undefined}
      className="tool-card"
      data-tool-id={tool.id}
    >
      <span className={`tool-icon ${toneClass(tool.icon)}`}>
        <Icon name={tool.icon} size={22} />
      </span>
      <span className="tool-card-text">
        <span className="tool-card-name">{tool.name}</span>
        <span className="tool-card-desc">{tool.description}</span>
      </span>
      {cta && (
        <span className="tool-card-cta">
          {cta} <Icon name="arrow-right" size={16} />
        </span>
      )}
    </Link>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { OPEN_TOOL } from '../pages/tool-card.tsx';
import { sections } from '../catalogue/index.ts';
import type { ToolId } from '../catalogue/types.ts';
import { Icon } from './icon.tsx';
import { MAIN_LINKS } from './links.ts';
import { InstallButton } from '../pwa/install-button.tsx';

/**
 * The slide-in "Tool Menu": PDF Tools and Utility Tools, each collapsible and open at
 * first; a side tab opens it, a close button (or Escape) closes it, picking a tool navigates there
 * and closes it. On phones it also carries the page links that the hidden desktop nav would show.
 */
export function SideMenu({
  open,
  onOpen,
  onClose,
  activeTool,
  onPick,
}: {
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  activeTool: ToolId | null;
  onPick: (id: ToolId) => void;
}) {
  const [expanded, setExpanded] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(sections.menu.map((s) => [s.title, true])),
  );
  const closeRef = useRef<HTMLButtonElement>(null);
  const tabRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const baseId = useId();

  useEffect(() => {
    if (open) {
      closeRef.current?.focus();
      wasOpen.current = true;
      const onKeyDown = (event: KeyboardEvent) => {
        if (event.key === 'Escape') onClose();
      };
      document.addEventListener('keydown', onKeyDown);
      return () => document.removeEventListener('keydown', onKeyDown);
    }
    // Closing returns focus to the tab only when focus was inside the menu (not after navigating).
    if (wasOpen.current && document.activeElement === document.body) tabRef.current?.focus();
    wasOpen.current = false;
  }, [open, onClose]);

  return (
    <>
      <button ref={tabRef} type="button" className="side-tab" aria-expanded={open} hidden={open} onClick={onOpen}>
        <Icon name="tools" size={18} />
        <span>Tool Menu</span>
      </button>
      <div className={`side-scrim${open ? ' open' : ''}`} onClick={onClose} aria-hidden="true" />
      <aside className={`side-menu${open ? ' open' : ''}`} aria-label="Tool Menu" inert={!open}>
        <div className="side-menu-head">
          <h2>Tool Menu</h2>
          <button ref={closeRef} type="button" className="icon-button" aria-label="Close Tool Menu" onClick={onClose}>
            <Icon name="close" size={20} />
          </button>
        </div>
        <div className="side-menu-body">
          <nav className="side-menu-pages" aria-label="Pages">
            {MAIN_LINKS.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.to === '/'} onClick={onClose}>
                <Icon name={link.icon} size={18} />
                {link.label}
              </NavLink>
            ))}
            <InstallButton place="menu" />
          </nav>
          {sections.menu.map((section, index) => {
            const isOpen = expanded[section.title];
            const listId = `${baseId}-section-${index}`;
            return (
              <section key={section.title} className="side-section">
                <h3>
                  <button
                    type="button"
                    className="side-section-toggle"
                    aria-expanded={isOpen}
                    aria-controls={listId}
                    onClick={() => setExpanded((state) => ({ ...state, [section.title]: !state[section.title] }))}
                  >
                    <span>{section.title}</span>
                    <span className="count">{section.tools.length}</span>
                    <Icon name="chevron-down" size={16} className={isOpen ? 'chevron open' : 'chevron'} />
                  </button>
                </h3>
                <ul id={listId} className={`side-list${isOpen ? ' open' : ''}`} inert={!isOpen}>
                  {section.tools.map((tool) => (
                    <li key={tool.id}>
                      <NavLink
                        to={`/tools/${tool.id}`}
                        state={OPEN_TOOL}
                        className={activeTool === tool.id ? 'side-item active' : 'side-item'}
                        aria-current={activeTool === tool.id ? 'page' : undefined}
                        onClick={() => onPick(tool.id)}
                      >
                        <Icon name={tool.icon} size={18} />
                        {tool.name}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      </aside>
    </>
  );
}

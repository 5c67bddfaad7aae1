import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { OPEN_TOOL } from '../pages/tool-card.tsx';
import { sections, tools } from '../catalogue/index.ts';
import { Icon, toneClass } from './icon.tsx';

/**
 * The header's Tools entry and its wide dropdown: one column per section, each entry with icon,
 * name and short description. Closes on choosing, on a click outside, on Escape (focus back on the
 * button) and when focus leaves it. Arrow keys move between entries.
 */
export function ToolsDropdown() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const { pathname } = useLocation();
  const focusFirstOnOpen = useRef(false);

  // Any navigation closes it (choosing an entry, or the browser's back button).
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    if (focusFirstOnOpen.current) {
      focusFirstOnOpen.current = false;
      panelRef.current?.querySelector<HTMLElement>('a')?.focus();
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusFirstOnOpen.current = true;
      if (open) panelRef.current?.querySelector<HTMLElement>('a')?.focus();
      else setOpen(true);
    }
  }

  function onPanelKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
    const links = [...(panelRef.current?.querySelectorAll<HTMLElement>('a') ?? [])];
    const index = links.indexOf(document.activeElement as HTMLElement);
    let next = index;
    if (event.key === 'ArrowDown') next = (index + 1) % links.length;
    if (event.key === 'ArrowUp') next = (index - 1 + links.length) % links.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = links.length - 1;
    event.preventDefault();
    links[next]?.focus();
  }

  return (
    <div
      className="tools-dropdown"
      ref={rootRef}
      onBlur={(event) => {
        if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={`nav-link nav-button${pathname.startsWith('/tools') ? ' active' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        Tools <Icon name="chevron-down" size={16} className={open ? 'chevron open' : 'chevron'} />
      </button>
      <div id={panelId} ref={panelRef} className="dropdown-panel" hidden={!open} onKeyDown={onPanelKeyDown}>
        <div className="dropdown-columns">
          {sections.dropdown.map((column) => (
            <section key={column.title} className="dropdown-column" aria-label={column.title}>
              <h2 className="dropdown-title">{column.title}</h2>
              <ul>
                {column.tools.map((tool) => (
                  <li key={tool.id}>
                    <Link
                      to={`/tools/${tool.id}`}
                      state={OPEN_TOOL}
                      className="dropdown-item"
                      onClick={() => setOpen(false)}
                    >
                      <span className={`tool-icon tool-icon-sm ${toneClass(tool.icon)}`}>
                        <Icon name={tool.icon} size={18} />
                      </span>
                      <span>
                        <span className="dropdown-name">{tool.name}</span>
                        <span className="dropdown-desc">{tool.description}</span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        <div className="dropdown-footer">
          <Link to="/tools" onClick={() => setOpen(false)}>
            Explore all {tools.length} tools <Icon name="arrow-right" size={16} />
          </Link>
        </div>
      </div>
    </div>
  );
}

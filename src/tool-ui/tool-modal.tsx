import { useEffect, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { ToolEntry } from '../catalogue/types.ts';
import { Icon, toneClass } from '../app/icon.tsx';
import { FileToolForm } from './file-tool-form.tsx';
import { UtilityForm } from './utility-form.tsx';
import { OfflineNotice } from '../pwa/offline-notice.tsx';

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.closest('[inert]') && el.getClientRects().length > 0,
  );
}

/**
 * The tool dialog: title, close button, the tool's form, over a backdrop. Escape and the
 * close button close it; Tab stays inside; on close, focus goes back to whatever opened it (or to
 * `fallbackFocus` when the opener is gone, e.g. after arriving from the tools list). Callers key it
 * by tool id, so changing tool resets files, options, progress and errors.
 */
export function ToolModal({
  tool,
  onClose,
  fallbackFocus,
  initialFiles,
}: {
  tool: ToolEntry;
  /** Files dropped on the tool's page before the window opened: the window starts with them. */
  initialFiles?: readonly File[];
  onClose: () => void;
  fallbackFocus?: () => HTMLElement | null;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const fallbackRef = useRef(fallbackFocus);
  useEffect(() => {
    onCloseRef.current = onClose;
    fallbackRef.current = fallbackFocus;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    document.body.classList.add('modal-open');
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onCloseRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.classList.remove('modal-open');
      const target = opener && opener !== document.body && opener.isConnected ? opener : fallbackRef.current?.();
      // After React has removed the dialog, so the browser does not fight over focus.
      queueMicrotask(() => target?.focus());
    };
  }, []);

  function trapTab(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = focusables(dialogRef.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="tool-modal-title"
        className={`modal${tool.kind === 'file' ? ' file-modal' : ''}`}
        tabIndex={-1}
        onKeyDown={trapTab}
      >
        <header className="modal-header">
          <span className={`tool-icon ${toneClass(tool.icon)}`}>
            <Icon name={tool.icon} size={22} />
          </span>
          <div className="modal-heading">
            <h2 id="tool-modal-title">{tool.name}</h2>
            <p>{tool.description}</p>
          </div>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <Icon name="close" size={20} />
          </button>
        </header>
        <div className="modal-body">
          {tool.kind === 'file' && <OfflineNotice tool={tool} />}
          {tool.kind === 'file' ? (
            <FileToolForm tool={tool} initialFiles={initialFiles} />
          ) : (
            <UtilityForm tool={tool} />
          )}
        </div>
        <footer className="modal-footer">
          <Icon name="shield" size={16} /> Processed on this device — nothing is uploaded.
        </footer>
      </div>
    </div>,
    document.body,
  );
}

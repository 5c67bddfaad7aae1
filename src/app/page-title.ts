import { useEffect } from 'react';

/** Sets the tab title for a page: "<title> — Folio". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} — Folio` : 'Folio — private PDF tools in your browser';
  }, [title]);
}

/**
 * Each PDF in the file list opened once, as soon as it is picked, in the thumbnail worker
 * (workers/bridge.ts openThumbnails): its page count, whether it needs a password, whether the
 * password typed opens it, whether it is damaged — before the user chooses options and presses the
 * action. The opened document also draws the list's first-page thumbnail.
 */
import { useEffect, useRef, useState } from 'react';
import { openThumbnails, type ThumbnailSource } from '../../workers/bridge.ts';

export type PdfCheck =
  | { state: 'checking' }
  | { state: 'ready'; pages: number; source: ThumbnailSource }
  /** Needs the password that opens it; `wrong` once a typed password did not. */
  | { state: 'locked'; wrong: boolean }
  | { state: 'damaged'; message: string };

interface Entry {
  check: PdfCheck;
  /** The password this check was made with ('' for none). */
  password: string;
  cancelled: boolean;
}

const isPdf = (file: File) => file.name.toLowerCase().endsWith('.pdf') || file.type === 'application/pdf';

/**
 * Checks of the PDFs among `files` (other files get no entry). A locked file is tried again when
 * `password` changes; `enabled` false (e.g. a tool that takes no PDF) checks nothing.
 */
export function usePdfChecks(files: readonly File[], password: string, enabled: boolean): ReadonlyMap<File, PdfCheck> {
  const entries = useRef(new Map<File, Entry>());
  const [checks, setChecks] = useState<ReadonlyMap<File, PdfCheck>>(new Map());

  useEffect(() => {
    const map = entries.current;
    const publish = () => setChecks(new Map([...map].map(([file, entry]) => [file, entry.check])));
    for (const [file, entry] of map) {
      if (files.includes(file)) continue;
      entry.cancelled = true;
      if (entry.check.state === 'ready') entry.check.source.close();
      map.delete(file);
    }
    for (const file of enabled ? files.filter(isPdf) : []) {
      const old = map.get(file);
      if (old && (old.check.state !== 'locked' || old.password === password)) continue;
      if (old) old.cancelled = true;
      const entry: Entry = { check: old?.check ?? { state: 'checking' }, password, cancelled: false };
      map.set(file, entry);
      openThumbnails(file, password || undefined).then(
        (source) => {
          if (entry.cancelled) return source.close();
          entry.check = { state: 'ready', pages: source.pages.length, source };
          publish();
        },
        (error: unknown) => {
          if (entry.cancelled) return;
          const name = (error as { name?: string }).name;
          if (name === 'PasswordRequired' || name === 'InvalidPassword') {
            entry.check = { state: 'locked', wrong: Boolean(password) };
          } else {
            const reason = (error as Error).message || 'it could not be read';
            entry.check = { state: 'damaged', message: reason };
          }
          publish();
        },
      );
    }
    publish();
  }, [files, password, enabled]);

  useEffect(() => {
    const map = entries.current;
    return () => {
      for (const entry of map.values()) {
        entry.cancelled = true;
        if (entry.check.state === 'ready') entry.check.source.close();
      }
      map.clear();
    };
  }, []);

  return checks;
}

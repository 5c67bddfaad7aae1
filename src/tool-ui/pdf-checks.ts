/**
 * Each PDF in the file list opened once, as soon as it is picked, in the thumbnail worker
 * (workers/bridge.ts openThumbnails): its page count, whether it needs a password, whether the
 * password typed opens it, whether it is damaged — before the user chooses options and presses the
 * action. The opened document also draws the list's first-page thumbnail.
 */
import { useEffect, useRef, useState } from 'react';
import { InputRefused, openThumbnails, type ThumbnailSource } from '../../workers/bridge.ts';

/** `withPassword`: the file was locked, and this is what it gave with the typed password, which the job needs too. */
type AfterPassword = { withPassword?: boolean };

export type PdfCheck =
  | { state: 'checking' }
  | ({ state: 'ready'; pages: number; source: ThumbnailSource } & AfterPassword)
  /** Needs the password that opens it; `wrong` once a typed password did not; `retrying` while one is tried. */
  | { state: 'locked'; wrong: boolean; retrying?: boolean }
  /** pdf.js could not read it; `cutShort`: because the file ends early (a download cut short). */
  | ({ state: 'damaged'; message: string; cutShort?: boolean } & AfterPassword)
  /** Refused by the resource check every job makes first (a decompression bomb): no job can run on it. */
  | ({ state: 'refused'; message: string } & AfterPassword)
  /** Not answered within CHECK_TIMEOUT_MS: the job runs without what the check would have told. */
  | ({ state: 'timed-out' } & AfterPassword);

/** Whether the job needs the typed password for this file: locked, or opened (or tried) with it. */
export function needsItsPassword(check: PdfCheck): boolean {
  return check.state === 'locked' || ('withPassword' in check && Boolean(check.withPassword));
}

/**
 * How long a check may take. Opening a PDF in pdf.js reads its cross-reference table, not its
 * pages, so this is seconds even for large files; a check that never answers (a stuck worker)
 * must not keep Process Files waiting for it (file-tool-form.tsx waits for checks the save
 * decision needs).
 */
export const CHECK_TIMEOUT_MS = 30_000;

/** A check that did not answer in time. */
export class CheckTimedOut extends Error {
  override name = 'CheckTimedOut';
}

/**
 * `promise`, or a CheckTimedOut rejection after `ms`. A value that arrives after the time is
 * handed to `late` (to close what it holds), never used: a timed-out check stays timed out.
 */
export function settleWithin<T>(promise: Promise<T>, ms: number, late: (value: T) => void): Promise<T> {
  let timedOut = false;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new CheckTimedOut(`No answer within ${ms / 1000} s`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (timedOut) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(error);
      },
    );
  });
}

/**
 * Whether a check has its final answer for the password typed so far. Not yet: still reading, or
 * locked while a typed password waits to be tried (`triedPassword` lags `typedPassword` until
 * typing pauses) or is being tried. No check (not a PDF) has nothing to wait for.
 */
export function checkSettled(check: PdfCheck | undefined, typedPassword: string, triedPassword: string): boolean {
  if (!check) return true;
  if (check.state === 'checking') return false;
  if (check.state === 'locked') return !check.retrying && typedPassword === triedPassword;
  return true;
}

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
      const wasLocked = old?.check.state === 'locked';
      const check: PdfCheck = old?.check.state === 'locked' ? { ...old.check, retrying: true } : { state: 'checking' };
      const entry: Entry = { check, password, cancelled: false };
      map.set(file, entry);
      settleWithin(openThumbnails(file, password || undefined), CHECK_TIMEOUT_MS, (late) => late.close()).then(
        (source) => {
          if (entry.cancelled) return source.close();
          entry.check = {
            state: 'ready',
            pages: source.pages.length,
            source,
            ...(wasLocked && { withPassword: true }),
          };
          publish();
        },
        (error: unknown) => {
          if (entry.cancelled) return;
          const name = (error as { name?: string }).name;
          if (name === 'PasswordRequired' || name === 'InvalidPassword') {
            entry.check = { state: 'locked', wrong: Boolean(password) };
          } else if (error instanceof InputRefused) {
            entry.check = { state: 'refused', message: error.message, ...(wasLocked && { withPassword: true }) };
          } else if (error instanceof CheckTimedOut) {
            entry.check = { state: 'timed-out', ...(wasLocked && { withPassword: true }) };
          } else {
            const reason = (error as Error).message || 'it could not be read';
            entry.check = {
              state: 'damaged',
              message: reason,
              ...(name === 'CutShortPdf' && { cutShort: true }),
              ...(wasLocked && { withPassword: true }),
            };
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

/**
 * Small pieces shared by the seven utility forms (password generator, word counter, age, BMI,
 * colour, units, JSON): the copy button with its 2-second 'Copied', the error line,
 * result figures. Kept in this sub-folder so the form registry (which loads ./*.tsx) ignores it.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import './utility-forms.css';

/** The copy confirmation lasts 2 seconds: long enough to read, gone before the next copy. */
export const COPIED_MS = 2000;

/** Copies text; `copied` is the key of the last thing copied, for COPIED_MS. */
export function useCopy(): {
  copied: string | null;
  failed: string | null;
  copy: (text: string, key?: string) => Promise<void>;
} {
  const [copied, setCopied] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string, key = 'default') => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setFailed(null);
      setCopied(key);
    } catch {
      // Clipboard refused (no permission, insecure context): say so instead of pretending.
      setCopied(null);
      setFailed(key);
    }
    timer.current = setTimeout(() => {
      setCopied(null);
      setFailed(null);
    }, COPIED_MS);
  }, []);
  return { copied, failed, copy };
}

export function CopyButton({
  text,
  copyKey,
  label = 'Copy',
  state,
  disabled,
}: {
  text: string;
  copyKey: string;
  label?: string;
  state: ReturnType<typeof useCopy>;
  disabled?: boolean;
}) {
  const done = state.copied === copyKey;
  const failed = state.failed === copyKey;
  return (
    <button
      type="button"
      className={`u-copy${done ? ' is-copied' : ''}`}
      onClick={() => void state.copy(text, copyKey)}
      disabled={disabled}
      aria-label={done || failed ? undefined : `${label}${copyKey === 'default' ? '' : ` ${copyKey}`}`}
    >
      {done ? 'Copied' : failed ? 'Copy failed' : label}
    </button>
  );
}

export function ErrorLine({ message }: { message: string | null }) {
  return (
    <p role="alert" className="u-error">
      {message}
    </p>
  );
}

export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="u-stat" title={hint}>
      <span className="u-stat-value">{value}</span>
      <span className="u-stat-label">{label}</span>
    </div>
  );
}

export function CalculateButton({ disabled, children = 'Calculate' }: { disabled?: boolean; children?: ReactNode }) {
  return (
    <button type="submit" className="button primary u-calculate" disabled={disabled}>
      {children}
    </button>
  );
}

const NUMBER = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => NUMBER.format(n);

/** Saves text as a file through a temporary object URL. */
export function downloadText(text: string, filename: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The page-range language every tool shares: `1-3, 5, 8-`, `last`, `odd`, `even`, `all`,
 * `last-2` style words are not supported on purpose (ambiguous with ranges). Page numbers are
 * 1-based. `5-3` counts down. An empty text means all pages. Anything not understood is an
 * error that says what and where — never silently dropped.
 */
import { FolioError } from './errors.ts';

export class PageRangeError extends FolioError {
  constructor(message: string) {
    super('InvalidInput', message);
  }
}

/**
 * The most pages a list may name (repeats counted) and the most parts a split may make: room for
 * a 20,000-page document listed twice, far below what would keep a job busy for minutes.
 */
export const MAX_LISTED_PAGES = 50_000;

const tooMany = (count: number, what: string) =>
  new PageRangeError(
    `"${what}" lists ${count.toLocaleString('en')} or more pages; the most Folio takes in one list is ` +
      `${MAX_LISTED_PAGES.toLocaleString('en')}.`,
  );

/** The text shown in a message: a long list is cut to its start. */
const quote = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function pageNumber(token: string, pageCount: number, whole: string): number {
  if (token === 'last') return pageCount;
  if (!/^\d+$/.test(token))
    throw new PageRangeError(`"${whole}" is not a page or a range (use e.g. 1-3, 5, 8-, last, odd, even).`);
  const n = Number(token);
  if (n < 1) throw new PageRangeError(`Page numbers start at 1 ("${whole}").`);
  if (n > pageCount)
    throw new PageRangeError(
      `Page ${n} does not exist: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}.`,
    );
  return n;
}

/** One part of a range list, e.g. "2-4" → [2, 3, 4]. */
function expandPart(part: string, pageCount: number): number[] {
  // Made only for these words: a list of 50,000 single pages must not build 50,000 full lists.
  if (part === 'all' || part === 'odd' || part === 'even') {
    const all = Array.from({ length: pageCount }, (_, i) => i + 1);
    return part === 'all' ? all : all.filter((n) => n % 2 === (part === 'odd' ? 1 : 0));
  }
  const dash = /^([^-]*)-([^-]*)$/.exec(part);
  if (!dash) return [pageNumber(part, pageCount, part)];
  const from = dash[1] === '' ? 1 : pageNumber(dash[1], pageCount, part);
  const to = dash[2] === '' ? pageCount : pageNumber(dash[2], pageCount, part);
  const step = from <= to ? 1 : -1;
  const pages: number[] = [];
  for (let n = from; n !== to + step; n += step) pages.push(n);
  return pages;
}

/**
 * Parses a range list into page numbers in the order written. Repeats are kept (organize uses
 * them to duplicate pages); callers that need a set use `new Set(...)`.
 */
export function parsePageRanges(text: string, pageCount: number): number[] {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return expandPart('all', pageCount);
  const parts = trimmed.split(/\s*[,;]\s*/);
  const pages: number[] = [];
  for (const raw of parts) {
    const part = raw.replace(/\s+/g, '').replace(/[–—]/g, '-');
    if (part === '') throw new PageRangeError(`There is an empty entry in "${quote(text)}" (two commas in a row?).`);
    // One by one: spreading a long range into push() overflows the stack.
    for (const page of expandPart(part, pageCount)) pages.push(page);
    if (pages.length > MAX_LISTED_PAGES) throw tooMany(pages.length, quote(text));
  }
  if (pages.length === 0) throw new PageRangeError(`"${text}" selects no pages.`);
  return pages;
}

/** Splits a range list into groups, one per comma-separated part (split-pdf: each range → one file). */
export function parsePageGroups(text: string, pageCount: number): number[][] {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') throw new PageRangeError('Enter the ranges to split by, e.g. 1-3, 4-6.');
  let listed = 0;
  return trimmed.split(/\s*[,;]\s*/).map((raw) => {
    const part = raw.replace(/\s+/g, '').replace(/[–—]/g, '-');
    if (part === '') throw new PageRangeError(`There is an empty entry in "${quote(text)}" (two commas in a row?).`);
    const pages = expandPart(part, pageCount);
    listed += pages.length;
    if (listed > MAX_LISTED_PAGES) throw tooMany(listed, quote(text));
    return pages;
  });
}

/**
 * Checks a range list's syntax without knowing the page count (for forms, before the file is
 * opened): null when it is well formed, else the message to show inline. Page numbers beyond the
 * document are reported by the engine, which knows the count.
 */
export function pageRangeSyntaxError(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return null;
  for (const raw of trimmed.split(/\s*[,;]\s*/)) {
    const part = raw.replace(/\s+/g, '').replace(/[–—]/g, '-');
    if (part === '') return `There is an empty entry in "${text}" (two commas in a row?).`;
    if (part === 'all' || part === 'odd' || part === 'even' || part === 'last') continue;
    const match = /^(\d+|last)?-(\d+|last)?$/.exec(part) ?? /^(\d+)$/.exec(part);
    if (!match || part === '-') return `"${raw}" is not a page or a range (use e.g. 1-3, 5, 8-, last, odd, even).`;
    if (/(^|-)0+(-|$)/.test(part)) return `Page numbers start at 1 ("${raw}").`;
  }
  return null;
}

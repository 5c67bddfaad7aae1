/**
 * What the security suite asks of every PDF it gets back, read by native qpdf (not by the code under
 * test): `qpdf --check` passes, and `qpdf --json` shows which actions the file holds — every object
 * of the file, reachable or not.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { allowedLinkTarget } from '../../workers/engine/lib/pdf/pdf-links.ts';

/** The /S values that make a dictionary an action (ISO 32000-2 Table 201). */
const ACTION_TYPES = new Set([
  'GoTo',
  'GoToR',
  'GoToE',
  'GoToDp',
  'Launch',
  'Thread',
  'URI',
  'Sound',
  'Movie',
  'Hide',
  'Named',
  'SubmitForm',
  'ResetForm',
  'ImportData',
  'JavaScript',
  'SetOCGState',
  'Rendition',
  'Trans',
  'GoTo3DView',
  'RichMediaExecute',
]);

export interface FoundAction {
  type: string;
  /** The /URI of a URI action, decoded. */
  uri?: string;
}

export interface PdfActions {
  actions: FoundAction[];
  /** /AA dictionaries (actions run by themselves on events). */
  automatic: number;
  /** /OpenAction entries that are actions (not destinations). */
  openActions: number;
  /** A /JavaScript name tree in the catalog's /Names. */
  documentJavaScript: boolean;
}

function withFile<T>(bytes: Uint8Array, read: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'folio-sec-'));
  try {
    const path = join(dir, 'in.pdf');
    writeFileSync(path, bytes);
    return read(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** qpdf's JSON strings: "u:text" or "b:hex". */
function jsonString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('u:')) return value.slice(2);
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1');
  return undefined;
}

/** Runs `qpdf --check`; fails the test with qpdf's words when it does not pass. */
export function expectQpdfCheck(bytes: Uint8Array, password?: string): void {
  withFile(bytes, (path) => {
    const result = spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--check', path], {
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  });
}

/** Every action, automatic action and document script in the file, as qpdf's JSON shows them. */
export function pdfActions(bytes: Uint8Array, password?: string): PdfActions {
  const json = withFile(bytes, (path) =>
    execFileSync(
      'qpdf',
      [...(password ? [`--password=${password}`] : []), '--json=2', '--json-key=qpdf', '--decode-level=none', path],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      },
    ),
  );
  const objects = (
    JSON.parse(json) as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: unknown } }>] }
  ).qpdf[1];
  const found: PdfActions = { actions: [], automatic: 0, openActions: 0, documentJavaScript: false };
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const dict = value as Record<string, unknown>;
    const type = typeof dict['/S'] === 'string' ? (dict['/S'] as string).slice(1) : undefined;
    const isAction =
      type !== undefined &&
      ACTION_TYPES.has(type) &&
      (dict['/Type'] === '/Action' || !('/Type' in dict) || dict['/Type'] === undefined);
    if (isAction) found.actions.push({ type, ...(type === 'URI' ? { uri: jsonString(dict['/URI']) } : {}) });
    if ('/AA' in dict) found.automatic++;
    if ('/OpenAction' in dict && !Array.isArray(dict['/OpenAction'])) found.openActions++;
    const names = dict['/Names'];
    if (dict['/Type'] === '/Catalog' && names && typeof names === 'object' && '/JavaScript' in names)
      found.documentJavaScript = true;
    Object.values(dict).forEach(visit);
  };
  for (const [key, object] of Object.entries(objects)) {
    if (!key.startsWith('obj:')) continue;
    visit(object.value ?? object.stream?.dict);
  }
  return found;
}

/**
 * The suite's rule for every output: qpdf checks it, and the only actions are page jumps, named
 * navigation and links to allowed web, mail and phone addresses — no automatic actions, no opening
 * action, no document JavaScript. Returns the actions for finer checks.
 */
export function expectOnlyAllowedActions(bytes: Uint8Array, password?: string): PdfActions {
  expectQpdfCheck(bytes, password);
  const found = pdfActions(bytes, password);
  for (const action of found.actions) {
    expect(['GoTo', 'Named', 'URI'], `action /S /${action.type}`).toContain(action.type);
    if (action.type === 'URI')
      expect(allowedLinkTarget(action.uri ?? ''), `URI ${JSON.stringify(action.uri)}`).toBeDefined();
  }
  expect(found.automatic, 'automatic (/AA) actions').toBe(0);
  expect(found.openActions, 'opening actions').toBe(0);
  expect(found.documentJavaScript, 'document JavaScript').toBe(false);
  return found;
}

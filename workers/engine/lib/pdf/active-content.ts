/**
 * Active content in a PDF: what a reader may run or open by itself or on a click — document
 * JavaScript, an opening action, automatic (/AA) actions, JavaScript and Launch actions, links to
 * addresses outside the allow-list of pdf-links.ts (`javascript:`, `file:`, `data:`…), and actions
 * that reach outside the document (submitting or importing form data, opening other files, media).
 *
 * One scan finds it and, when asked, removes it; the tools that rewrite a document call it through
 * `handleActiveContent` (their "Remove scripts and actions" option), and the LibreOffice engine's
 * output always goes through `removeActiveContent`. Kept: going to a page (GoTo), named navigation
 * (next page…), view changes (Hide, SetOCGState, Trans, Thread, ResetForm) and allowed web, mail and
 * phone links.
 *
 * The scan walks every object of the file, not only the reachable ones: pdf-lib writes every object
 * it holds, so an orphaned JavaScript action would otherwise survive in the output.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';
import { isAllowedUriAction } from './pdf-links.ts';
import { savePdf } from './pdf-util.ts';
import type { EngineOptions } from '../types.ts';
import { REMOVE_SCRIPTS_OPTION } from '../../../../shared/active-content-option.ts';

export interface ActiveContentReport {
  /** Scripts of the document itself (the catalog's /Names /JavaScript), run when it opens. */
  documentJavaScript: number;
  /** An action run when the document opens (/OpenAction) other than going to a page. */
  openAction: number;
  /** Actions run by themselves on events (/AA: page opened, field changed, document closed…). */
  automaticActions: number;
  /** JavaScript actions behind links, bookmarks and form fields. */
  javaScript: number;
  /** Actions that open a file or start a program (/Launch). */
  launch: number;
  /** Link actions to addresses outside the allow-list (javascript:, file:, data:, relative…). */
  unsafeLinks: number;
  /** Other actions that reach outside the document (submit or import form data, other files, media). */
  otherActions: number;
}

// PDFName.of decodes its text on every call; the scan asks for the same few names per object visited.
const pdfNames = new Map<string, PDFName>();
const N = (name: string): PDFName => {
  let pdfName = pdfNames.get(name);
  if (!pdfName) pdfNames.set(name, (pdfName = PDFName.of(name)));
  return pdfName;
};
const S = N('S');

/** Action types kept: they move within the document or change its view, and run nothing. */
const HARMLESS_ACTIONS = new Set([
  'GoTo',
  'Named',
  'Hide',
  'SetOCGState',
  'Trans',
  'Thread',
  'ResetForm',
  'GoTo3DView',
]);
/**
 * Action types that are removed wherever they are found, also as orphaned objects (the /S values
 * that only actions have; /S also names structure types, transitions and soft masks elsewhere).
 */
const REMOVED_ACTIONS = new Set([
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ImportData',
  'GoToR',
  'GoToE',
  'Rendition',
  'Movie',
  'Sound',
  'RichMediaExecute',
  'URI',
]);

export const emptyReport = (): ActiveContentReport => ({
  documentJavaScript: 0,
  openAction: 0,
  automaticActions: 0,
  javaScript: 0,
  launch: 0,
  unsafeLinks: 0,
  otherActions: 0,
});

export const hasActiveContent = (report: ActiveContentReport): boolean => Object.values(report).some((n) => n > 0);

export function addReports(into: ActiveContentReport, more: ActiveContentReport): ActiveContentReport {
  for (const key of Object.keys(into) as (keyof ActiveContentReport)[]) into[key] += more[key];
  return into;
}

/** Each name's text, decoded once (pdf-lib keeps one PDFName per name). */
const nameTexts = new WeakMap<PDFName, string>();

const actionType = (action: PDFDict): string | undefined => {
  const type = action.lookup(S);
  if (!(type instanceof PDFName)) return undefined;
  let text = nameTexts.get(type);
  if (text === undefined) nameTexts.set(type, (text = type.decodeText()));
  return text;
};

/** Whether this action, and every action chained after it (/Next), is kept. */
function isHarmless(action: PDFDict, context: PDFDocument['context'], depth = 0): boolean {
  const type = actionType(action);
  const harmless = type === 'URI' ? isAllowedUriAction(action) : type !== undefined && HARMLESS_ACTIONS.has(type);
  if (!harmless || depth > 32) return harmless;
  const next = context.lookup(action.get(N('Next')));
  if (next instanceof PDFDict) return isHarmless(next, context, depth + 1);
  if (next instanceof PDFArray) {
    return next.asArray().every((item) => {
      const chained = context.lookup(item);
      return !(chained instanceof PDFDict) || isHarmless(chained, context, depth + 1);
    });
  }
  return true;
}

/** An action object that removal takes out wherever it hangs (scanActiveContent's sweep of orphaned actions). */
export function isRemovedAction(object: PDFObject, context: PDFDocument['context']): boolean {
  if (!(object instanceof PDFDict)) return false;
  const type = actionType(object);
  const isAction = type !== undefined && (REMOVED_ACTIONS.has(type) || object.lookup(N('Type')) === N('Action'));
  return isAction && !isHarmless(object, context);
}

/** The report field for an unsafe action behind a click (link, bookmark, field). */
function clickField(action: PDFDict): keyof ActiveContentReport {
  const type = actionType(action);
  if (type === 'JavaScript') return 'javaScript';
  if (type === 'Launch') return 'launch';
  if (type === 'URI') return 'unsafeLinks';
  return 'otherActions';
}

/** Counts the leaves of a name tree (the document JavaScript), collecting its indirect nodes. */
function nameTreeLeaves(node: PDFObject | undefined, doc: PDFDocument, refs: PDFRef[], depth = 0): number {
  if (node instanceof PDFRef) refs.push(node);
  const dict = doc.context.lookup(node);
  if (!(dict instanceof PDFDict) || depth > 32) return 0;
  let count = 0;
  const names = dict.lookup(N('Names'));
  if (names instanceof PDFArray) {
    for (let i = 1; i < names.size(); i += 2) {
      const value = names.get(i);
      if (value instanceof PDFRef) refs.push(value);
      count++;
    }
  }
  const kids = dict.lookup(N('Kids'));
  if (kids instanceof PDFArray) for (const kid of kids.asArray()) count += nameTreeLeaves(kid, doc, refs, depth + 1);
  return count;
}

/**
 * Finds the document's active content and, with `remove`, takes it out (the document is changed in
 * place). Returns what was found. With `objects`, only those indirect objects are scanned (not the
 * document's own scripts): the objects qpdf will copy from a source (qpdf-assembly.ts). With `changed`,
 * the removal adds each indirect object it changes in place to that set (those it deletes are gone
 * from the document instead), so a caller can write out just those.
 */
export function scanActiveContent(
  doc: PDFDocument,
  {
    remove,
    objects: only,
    changed,
  }: { remove: boolean; objects?: ReadonlyArray<[PDFRef, PDFObject]>; changed?: Set<PDFRef> },
): ActiveContentReport {
  const { context } = doc;
  const report = emptyReport();
  const doomed = new Set<PDFRef>();
  /** Link annotations that lost their action: taken off their pages when they have no destination either. */
  const deadLinks = new Set<PDFDict>();

  /** The indirect object being visited (what a change to one of its direct dictionaries changes). */
  let current: PDFRef | undefined;
  const changedInPlace = (holder: PDFObject | undefined) => {
    if (changed && holder instanceof PDFRef) changed.add(holder);
  };

  // Document JavaScript: the /JavaScript name tree of the catalog's /Names.
  const names = only ? undefined : doc.catalog.lookup(N('Names'));
  if (names instanceof PDFDict && names.has(N('JavaScript'))) {
    const refs: PDFRef[] = [];
    report.documentJavaScript += Math.max(1, nameTreeLeaves(names.get(N('JavaScript')), doc, refs));
    if (remove) {
      names.delete(N('JavaScript'));
      const holder = doc.catalog.get(N('Names'));
      changedInPlace(holder instanceof PDFRef ? holder : context.trailerInfo.Root);
      for (const ref of refs) doomed.add(ref);
    }
  }

  // Only dictionaries with an /S name are actions: /A also holds a structure element's attributes.
  const unsafeAction = (value: PDFObject | undefined): PDFDict | undefined => {
    const action = context.lookup(value);
    return action instanceof PDFDict && actionType(action) !== undefined && !isHarmless(action, context)
      ? action
      : undefined;
  };
  const discard = (value: PDFObject | undefined) => {
    if (value instanceof PDFRef) doomed.add(value);
  };

  const visitDict = (dict: PDFDict) => {
    const click = dict.get(N('A'));
    const clickAction = unsafeAction(click);
    if (clickAction) {
      report[clickField(clickAction)]++;
      if (remove) {
        dict.delete(N('A'));
        changedInPlace(current);
        discard(click);
        if (dict.lookup(N('Subtype')) === N('Link')) deadLinks.add(dict);
      }
    }
    const opening = dict.get(N('OpenAction'));
    if (unsafeAction(opening)) {
      report.openAction++;
      if (remove) {
        dict.delete(N('OpenAction'));
        changedInPlace(current);
        discard(opening);
      }
    }
    const automaticValue = dict.get(N('AA'));
    const automatic = context.lookup(automaticValue);
    if (automatic instanceof PDFDict) {
      for (const [trigger, value] of automatic.entries()) {
        if (!unsafeAction(value)) continue;
        report.automaticActions++;
        if (remove) {
          automatic.delete(trigger);
          changedInPlace(automaticValue instanceof PDFRef ? automaticValue : current);
          discard(value);
        }
      }
      if (remove && automatic.keys().length === 0) {
        dict.delete(N('AA'));
        changedInPlace(current);
        discard(automaticValue);
      }
    }
  };

  const visit = (object: PDFObject, depth: number) => {
    if (depth > 64) return;
    if (object instanceof PDFStream) {
      visit(object.dict, depth + 1);
    } else if (object instanceof PDFDict) {
      visitDict(object);
      for (const [, value] of object.entries())
        if (value instanceof PDFDict || value instanceof PDFArray) visit(value, depth + 1);
    } else if (object instanceof PDFArray) {
      for (const value of object.asArray())
        if (value instanceof PDFDict || value instanceof PDFArray) visit(value, depth + 1);
    }
  };
  const objects = only ?? context.enumerateIndirectObjects();
  for (const [ref, object] of objects) {
    current = ref;
    visit(object, 0);
  }

  if (remove) {
    // Orphaned actions (and the JavaScript streams of removed ones): pdf-lib writes every object it holds.
    for (const [ref, object] of objects) if (isRemovedAction(object, context)) doomed.add(ref);
    for (const ref of [...doomed]) {
      const action = context.lookup(ref);
      if (action instanceof PDFDict) {
        const script = action.get(N('JS'));
        if (script instanceof PDFRef) doomed.add(script);
      }
    }
    for (const ref of doomed) context.delete(ref);
    dropDeadLinks(doc, deadLinks, changedInPlace);
  }
  return report;
}

/** Takes link annotations that no longer go anywhere off their pages. */
function dropDeadLinks(doc: PDFDocument, deadLinks: Set<PDFDict>, changedInPlace: (holder: PDFRef) => void): void {
  if (deadLinks.size === 0) return;
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(N('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const entry = annots.get(i);
      const annot = doc.context.lookup(entry);
      if (annot instanceof PDFDict && deadLinks.has(annot) && !annot.has(N('Dest'))) {
        annots.remove(i);
        const holder = page.node.get(N('Annots'));
        changedInPlace(holder instanceof PDFRef ? holder : page.ref);
        if (entry instanceof PDFRef) doc.context.delete(entry);
      }
    }
  }
}

export const findActiveContent = (doc: PDFDocument): ActiveContentReport => scanActiveContent(doc, { remove: false });
export const removeActiveContent = (doc: PDFDocument): ActiveContentReport => scanActiveContent(doc, { remove: true });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "document JavaScript, 2 Launch actions, 1 javascript: or file link" — what the report found. */
export function describeActiveContent(report: ActiveContentReport): string {
  const parts: string[] = [];
  if (report.documentJavaScript) parts.push(`document JavaScript (${plural(report.documentJavaScript, 'script')})`);
  if (report.openAction) parts.push('an action run on opening');
  if (report.automaticActions) parts.push(plural(report.automaticActions, 'automatic action'));
  if (report.javaScript) parts.push(plural(report.javaScript, 'JavaScript action'));
  if (report.launch) parts.push(plural(report.launch, 'Launch action'));
  if (report.unsafeLinks)
    parts.push(plural(report.unsafeLinks, 'link to a script or local file', 'links to scripts or local files'));
  if (report.otherActions)
    parts.push(
      plural(report.otherActions, 'action reaching outside the document', 'actions reaching outside the document'),
    );
  return parts.join(', ');
}

/** The option's value: on unless the caller said false (clients that do not send it get the safe default). */
export const removeScriptsChosen = (options: EngineOptions): boolean =>
  options[REMOVE_SCRIPTS_OPTION] !== false && options[REMOVE_SCRIPTS_OPTION] !== 'false';

/**
 * The result's note for what was found: removed, or kept as chosen; undefined when there was none.
 * `documentLevelDropped`: the tool builds a new document from the pages (merge, split), so what
 * belongs to the document itself (its JavaScript, opening action) is not carried over in any case.
 */
export function activeContentNote(
  report: ActiveContentReport,
  removed: boolean,
  { documentLevelDropped = false } = {},
): string | undefined {
  if (!hasActiveContent(report)) return undefined;
  const what = describeActiveContent(report);
  if (removed) return `Removed scripts and actions: ${what}.`;
  const where = documentLevelDropped
    ? " where they belong to pages (links, fields, page actions; the document's own are not carried over)"
    : '';
  return (
    `The PDF contains scripts or actions (${what}), kept as chosen${where}: some readers run them when the file ` +
    `is opened or clicked.`
  );
}

/**
 * The tools' one call: finds the active content of `doc`, removes it when the option asks, and
 * returns the report (for tools that open several documents) and the note to add (if any).
 */
export function handleActiveContent(
  doc: PDFDocument,
  options: EngineOptions,
  { documentLevelDropped = false } = {},
): { report: ActiveContentReport; removed: boolean; note?: string } {
  const removed = removeScriptsChosen(options);
  const report = scanActiveContent(doc, { remove: removed });
  return { report, removed, note: activeContentNote(report, removed, { documentLevelDropped }) };
}

/**
 * What belongs to the document itself — its scripts, an opening action, document-level /AA — read
 * from the catalog only. Tools that build a new document from pages (merge, split) never carry these
 * over, but say what the input had.
 */
export function documentLevelActiveContent(doc: PDFDocument): ActiveContentReport {
  const report = emptyReport();
  const { catalog, context } = doc;
  const unsafe = (value: PDFObject | undefined) => {
    const action = context.lookup(value);
    return action instanceof PDFDict && actionType(action) !== undefined && !isHarmless(action, context);
  };
  const names = catalog.lookup(N('Names'));
  if (names instanceof PDFDict && names.has(N('JavaScript'))) {
    report.documentJavaScript += Math.max(1, nameTreeLeaves(names.get(N('JavaScript')), doc, []));
  }
  if (unsafe(catalog.get(N('OpenAction')))) report.openAction++;
  const automatic = catalog.lookup(N('AA'));
  if (automatic instanceof PDFDict)
    for (const [, value] of automatic.entries()) if (unsafe(value)) report.automaticActions++;
  return report;
}

/** The names that only active content uses (actions, their triggers and document scripts). */
const ACTIVE_NAMES = ['OpenAction', 'AA', 'JS', ...REMOVED_ACTIONS].filter((name) => name !== 'URI');
/** The names mayHoldActiveContent looks for (a link's /URI is looked at further), by their first byte. */
const NAMES_BY_FIRST_BYTE: Array<string[] | undefined> = [];
for (const name of ['ObjStm', 'URI', ...ACTIVE_NAMES]) (NAMES_BY_FIRST_BYTE[name.charCodeAt(0)] ??= []).push(name);
const ALLOWED_URI_PREFIXES = ['http://', 'https://', 'mailto:', 'tel:'];
const isDelimiter = (byte: number | undefined) =>
  byte === undefined || byte <= 0x20 || '()<>[]{}/%'.includes(String.fromCharCode(byte));

function startsWithAt(bytes: Uint8Array, at: number, text: string, caseless = false): boolean {
  if (at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) {
    let byte = bytes[at + i];
    if (caseless && byte >= 0x41 && byte <= 0x5a) byte += 0x20;
    if (byte !== text.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * Whether what follows a /URI name is harmless: a literal string with an allowed scheme, or another
 * name (`/S /URI /URI (…)`: the first one is the action's type, its address is checked on its own).
 */
function allowedUriAt(bytes: Uint8Array, at: number): boolean {
  let i = at;
  while (i < bytes.length && bytes[i] <= 0x20) i++;
  if (bytes[i] === 0x2f) return true;
  return bytes[i] === 0x28 && ALLOWED_URI_PREFIXES.some((prefix) => startsWithAt(bytes, i + 1, prefix, true));
}

/**
 * A quick look over a PDF that qpdf wrote without object streams (every dictionary is plain text and
 * qpdf writes names in their canonical form): false when no active content can be in it, so page
 * assembly on qpdf needs no pdf-lib pass. True on any doubt: an object stream, a name only actions
 * use, or a link whose address is not plainly an allowed one (a bare match inside compressed stream
 * data also counts — that costs only the slower exact scan).
 */
export function mayHoldActiveContent(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(0x2f); at >= 0; at = bytes.indexOf(0x2f, at + 1)) {
    // Most names start with a letter none of the names looked for starts with.
    const candidates = NAMES_BY_FIRST_BYTE[bytes[at + 1]];
    if (!candidates) continue;
    for (const name of candidates) {
      if (!startsWithAt(bytes, at + 1, name) || !isDelimiter(bytes[at + 1 + name.length])) continue;
      if (name !== 'URI' || !allowedUriAt(bytes, at + 4)) return true;
    }
  }
  return false;
}

/**
 * For tools that assemble pages on qpdf (merge, split, rotate): the scan and, when chosen, the
 * removal on qpdf's output. Most files hold no active content and go through untouched; the others
 * are opened once with pdf-lib, cleaned and saved.
 */
export async function handleAssembledActiveContent(
  bytes: Uint8Array,
  options: EngineOptions,
  { documentLevelDropped = false } = {},
): Promise<{ bytes: Uint8Array; report: ActiveContentReport; note?: string }> {
  if (!mayHoldActiveContent(bytes)) return { bytes, report: emptyReport() };
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  const { report, removed, note } = handleActiveContent(doc, options, { documentLevelDropped });
  if (!removed || !hasActiveContent(report)) return { bytes, report, note };
  return { bytes: await savePdf(doc), report, note };
}

/**
 * The Office tools' side of the LibreOffice engine: which files go to it (the `engine` option, and
 * legacy binary .doc/.xls/.ppt always), and the tools' options applied to its PDF (pages to keep,
 * bookmarks off) with pdf-lib.
 */
import { PDFDocument, PDFName } from 'pdf-lib';
import type { EngineContext, EngineInput, EngineOptions, EngineResult } from '../types.ts';
import { FolioError } from '../errors.ts';
import {
  convertWithLibreOffice,
  libreOfficeUnavailable,
  startLibreOfficeEarly,
  type LibreOfficeFormat,
} from './libreoffice.ts';
import { prefetchCommonFonts } from '../office-to-pdf/fonts.ts';
import { legacyExtension, oleKind, openOfficeInput, type OfficeTool } from '../office-to-pdf/sniff.ts';
import { parsePageRanges } from '../../../../shared/page-range.ts';
import { keepPages, savePdf } from '../pdf/pdf-util.ts';
import { baseName } from '../../../../shared/format.ts';
import { describeActiveContent, hasActiveContent, removeActiveContent } from '../pdf/active-content.ts';

/** Test-only: LibreOffice saves in this legacy format instead of PDF (the e2e suite makes its .doc/.xls this way). */
const SAVE_AS: Record<string, LibreOfficeFormat> = { doc: 'doc', xls: 'xls', ppt: 'ppt' };

/**
 * Why this file goes to LibreOffice: 'chosen' (the `engine` option), 'legacy' (an old binary file
 * for this tool, which only LibreOffice reads), or undefined (the built-in engine). Encrypted OLE
 * files and legacy files of another tool stay with the built-in path, whose sniffer explains them.
 */
/**
 * The Office tools' warm-up when their window opens or their options change: the common fonts of
 * the built-in engine, and LibreOffice itself once it is the chosen engine.
 */
export async function prepareOfficeEngines(options?: EngineOptions): Promise<void> {
  if (options?.engine === 'libreoffice') startLibreOfficeEarly();
  await prefetchCommonFonts();
}

export function libreOfficeReason(
  input: EngineInput,
  options: EngineOptions,
  tool: OfficeTool,
): 'chosen' | 'legacy' | undefined {
  const kind = oleKind(input.bytes);
  if (kind === tool || kind === 'other') return 'legacy';
  if (kind) return undefined; // encrypted, or a legacy file for another tool
  return options.engine === 'libreoffice' ? 'chosen' : undefined;
}

/**
 * Cleans LibreOffice's PDF in place: every link or action whose target is outside the allow-list
 * (javascript:, vbscript:, data:, file: — LibreOffice also turns relative targets into paths of its
 * own file system, file:///tmp/in/…) is removed, with scripts and Launch actions, by the same cleaner
 * as the page tools' "Remove scripts and actions". Returns the note to show, if anything was removed.
 */
export function cleanLibreOfficePdf(doc: PDFDocument): string | undefined {
  const report = removeActiveContent(doc);
  return hasActiveContent(report)
    ? `Removed links and actions the PDF must not carry: ${describeActiveContent(report)}.`
    : undefined;
}

/** Converts with LibreOffice and applies the tool's options. `pages` applies to Word and PowerPoint. */
export async function runWithLibreOffice(
  input: EngineInput,
  options: EngineOptions,
  ctx: EngineContext,
  tool: OfficeTool,
  reason: 'chosen' | 'legacy',
  { isCsv = false }: { isCsv?: boolean } = {},
): Promise<EngineResult> {
  const legacy = legacyExtension(tool);
  if (reason === 'legacy') {
    const unavailable = libreOfficeUnavailable();
    if (unavailable) {
      throw new FolioError(
        'NotImplemented',
        `"${input.name}" is an old-style ${legacy} file, which only the LibreOffice engine reads, and it cannot ` +
          `run here: ${unavailable.replace(/;.*$/, '.')} Or save the file as ${legacy}x in Office and try again.`,
      );
    }
  } else if (!isCsv && oleKind(input.bytes) === undefined) {
    // A file for another tool, a damaged or empty one: the sniffer's clear message, before the engine's 247 MB
    // download.
    await openOfficeInput(input.name, input.bytes, tool);
  }
  const saveAs = SAVE_AS[String(options.saveAs ?? '')];
  let bytes = await convertWithLibreOffice(input, ctx, saveAs ?? 'pdf');
  const notes = [
    reason === 'legacy'
      ? `Old ${legacy} format: converted with the LibreOffice engine.`
      : 'Converted with the LibreOffice engine.',
  ];
  if (saveAs) return { bytes, filename: `${baseName(input.name)}.${saveAs}`, mime: 'application/octet-stream', notes };

  const pages = tool === 'xlsx' ? '' : String(options.pages ?? '').trim();
  const doc = await PDFDocument.load(bytes);
  const removed = cleanLibreOfficePdf(doc);
  if (removed) notes.push(removed);
  let out = doc;
  if (pages) {
    out = await keepPages(doc, parsePageRanges(pages, doc.getPageCount()));
  } else if (options.outline === false) {
    doc.catalog.delete(PDFName.of('Outlines'));
  }
  bytes = await savePdf(out);
  if (
    tool === 'xlsx' &&
    (options.sheets === 'active' ||
      options.fitToWidth === true ||
      (options.orientation && options.orientation !== 'auto'))
  ) {
    notes.push(
      "The workbook's own print settings apply: the sheet, orientation and fit options are the built-in engine's.",
    );
  }
  return { bytes, filename: `${baseName(input.name)}.pdf`, mime: 'application/pdf', notes };
}

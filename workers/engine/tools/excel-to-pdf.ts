/**
 * excel-to-pdf: .xlsx, .ods or .csv → PDF, each sheet's used range paginated as a table by Folio's own
 * layout engine (workers/engine/lib/office-to-pdf/), with Excel's number formats and metric-compatible fonts;
 * or by the optional LibreOffice engine (the `engine` option, and legacy .xls files).
 */
import { PDFDocument } from 'pdf-lib';
import type { Engine } from '../lib/types.ts';
import { FolioError, throwIfAborted, readFailure } from '../lib/errors.ts';
import { openOfficeInput } from '../lib/office-to-pdf/sniff.ts';
import { openProtectedOffice, renderedPdfResult, withOpeningNotes } from '../lib/office-to-pdf/office-decrypt.ts';
import { readOds } from '../lib/office-to-pdf/ods.ts';
import { readCsv, readXlsx, type XlsxOptions } from '../lib/office-to-pdf/xlsx.ts';
import { DOCUMENT_ENGINE, FontBook, fontNotes } from '../lib/office-to-pdf/fonts.ts';
import { reportingFirstDownloads } from '../lib/assets.ts';
import { ImageCache } from '../lib/office-to-pdf/text.ts';
import { renderSections } from '../lib/office-to-pdf/flow.ts';
import { baseName } from '../../../shared/format.ts';
import { writeHeadingsOutline } from '../lib/office-to-pdf/outline.ts';
import type { Section } from '../lib/office-to-pdf/model.ts';
import { libreOfficeReason, prepareOfficeEngines, runWithLibreOffice } from '../lib/libreoffice/libreoffice-office.ts';

function looksLikeCsv(name: string, bytes: Uint8Array): boolean {
  // An RTF document is text too, but it goes to the sniffer, which points to Word to PDF.
  if (new TextDecoder().decode(bytes.subarray(0, 5)) === '{\\rtf') return false;
  if (/\.csv$/i.test(name)) return true;
  const head = bytes.subarray(0, 512);
  return head.length > 0 && head.every((b) => b === 9 || b === 10 || b === 13 || b >= 32);
}

/** Warm-up when the tool's window opens (and when LibreOffice is chosen): see prepareOfficeEngines. */
export const prepare = prepareOfficeEngines;

export const run: Engine = async ([given], options, { signal, progress }) => {
  if (!given) throw new FolioError('InvalidInput', 'Please select at least one file');
  // A file saved with a password is decrypted first (Excel's built-in one, else the one given), for either engine.
  const { input, notes: openingNotes } = await openProtectedOffice(given, { signal, progress });
  // The LibreOffice engine when chosen, and for legacy .xls files (which only it reads).
  const reason = libreOfficeReason(input, options, 'xlsx');
  if (reason)
    return withOpeningNotes(
      await runWithLibreOffice(input, options, { signal, progress }, 'xlsx', reason, {
        isCsv: input.bytes.byteLength > 0 && looksLikeCsv(input.name, input.bytes),
      }),
      openingNotes,
    );
  const settings: XlsxOptions = {
    sheets: options.sheets === 'active' ? 'active' : 'all',
    fitToWidth: options.fitToWidth === true,
    orientation:
      options.orientation === 'portrait' || options.orientation === 'landscape' ? options.orientation : 'auto',
    fileName: input.name,
  };
  let sections: Section[];
  let notes: string[] = [];
  if (input.bytes.byteLength > 0 && looksLikeCsv(input.name, input.bytes)) {
    sections = readCsv(new TextDecoder().decode(input.bytes), settings);
  } else {
    const opened = await openOfficeInput(input.name, input.bytes, 'xlsx');
    try {
      ({ sections, notes } =
        opened.kind === 'ods' ? await readOds(opened.zip, settings) : await readXlsx(input.bytes, settings));
    } catch (error) {
      throw readFailure(input.name, error);
    }
  }
  throwIfAborted(signal);
  if (sections.length === 0) throw new FolioError('InvalidInput', `"${input.name}" has no cells with values to print.`);
  const doc = await PDFDocument.create();
  doc.setTitle(baseName(input.name));
  doc.setCreator('Folio');
  const fonts = new FontBook(doc);
  const images = new ImageCache(doc, fonts);
  const { outline } = await reportingFirstDownloads(progress, DOCUMENT_ENGINE, () =>
    renderSections(doc, sections, { fonts, images }, { signal, progress }),
  );
  notes = [...notes, ...images.notes, ...fontNotes(fonts)];
  if (options.outline !== false) writeHeadingsOutline(doc, outline);
  return renderedPdfResult(doc, input.name, notes, openingNotes);
};

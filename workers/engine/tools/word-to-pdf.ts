/**
 * word-to-pdf: .docx, .odt or .rtf → PDF, each read into the same layout model and rendered by Folio's own layout
 * engine (workers/engine/lib/office-to-pdf/) with
 * metric-compatible fonts; or by the optional LibreOffice engine (the `engine` option, and legacy .doc
 * files): see workers/engine/lib/libreoffice/libreoffice.ts.
 */
import { PDFDocument } from 'pdf-lib';
import { keepPages } from '../lib/pdf/pdf-util.ts';
import type { Engine } from '../lib/types.ts';
import { FolioError, throwIfAborted, readFailure } from '../lib/errors.ts';
import { openOfficeInput } from '../lib/office-to-pdf/sniff.ts';
import { openProtectedOffice, renderedPdfResult, withOpeningNotes } from '../lib/office-to-pdf/office-decrypt.ts';
import { readDocx } from '../lib/office-to-pdf/docx/index.ts';
import { readOdt } from '../lib/office-to-pdf/odt.ts';
import { readRtf } from '../lib/office-to-pdf/rtf.ts';
import { DOCUMENT_ENGINE, FontBook, fontNotes } from '../lib/office-to-pdf/fonts.ts';
import { reportingFirstDownloads } from '../lib/assets.ts';
import { ImageCache } from '../lib/office-to-pdf/text.ts';
import { renderSections } from '../lib/office-to-pdf/flow.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { baseName } from '../../../shared/format.ts';
import { writeHeadingsOutline } from '../lib/office-to-pdf/outline.ts';
import { libreOfficeReason, prepareOfficeEngines, runWithLibreOffice } from '../lib/libreoffice/libreoffice-office.ts';

/** Warm-up when the tool's window opens (and when LibreOffice is chosen): see prepareOfficeEngines. */
export const prepare = prepareOfficeEngines;

export const run: Engine = async ([given], options, { signal, progress }) => {
  if (!given) throw new FolioError('InvalidInput', 'Please select at least one file');
  // A file saved with a password is decrypted first (Excel's built-in one, else the one given), for either engine.
  const { input, notes: openingNotes } = await openProtectedOffice(given, { signal, progress });
  // The LibreOffice engine when chosen, and for legacy .doc files (which only it reads).
  const reason = libreOfficeReason(input, options, 'docx');
  if (reason)
    return withOpeningNotes(
      await runWithLibreOffice(input, options, { signal, progress }, 'docx', reason),
      openingNotes,
    );
  const opened = await openOfficeInput(input.name, input.bytes, 'docx');
  let read;
  try {
    read =
      opened.kind === 'rtf'
        ? readRtf(input.bytes)
        : opened.kind === 'odt'
          ? await readOdt(opened.zip)
          : await readDocx(opened.zip);
  } catch (error) {
    throw readFailure(input.name, error);
  }
  throwIfAborted(signal);
  const doc = await PDFDocument.create();
  doc.setTitle(baseName(input.name));
  doc.setCreator('Folio');
  doc.setProducer('Folio (pdf-lib)');
  // The first run downloads the fonts the document needs (the CJK one is 10.6 MB): say so.
  const fonts = new FontBook(doc);
  const images = new ImageCache(doc, fonts);
  const { outline } = await reportingFirstDownloads(progress, DOCUMENT_ENGINE, () =>
    renderSections(
      doc,
      read.sections,
      { fonts, images },
      { signal, progress, bodyClearsFurniture: opened.kind === 'docx', spaceBeforeAfterBreaks: opened.kind === 'docx' },
    ),
  );
  const notes = [...read.notes, ...images.notes, ...fontNotes(fonts)];
  const pages = String(options.pages ?? '').trim();
  // Bookmarks from the headings (only for the whole document: a page range would cut their targets).
  if (options.outline !== false && !pages) writeHeadingsOutline(doc, outline);
  let out = doc;
  if (pages) {
    out = await keepPages(doc, parsePageRanges(pages, doc.getPageCount()));
  }
  return renderedPdfResult(out, input.name, notes, openingNotes);
};

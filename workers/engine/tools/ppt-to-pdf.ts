/**
 * ppt-to-pdf: .pptx or .odp → PDF, one page per slide at the presentation's size, drawn by Folio's
 * own renderers (workers/engine/lib/office-to-pdf/pptx.ts, odp.ts) with metric-compatible fonts; or by the
 * optional LibreOffice engine (the `engine` option, and legacy .ppt files).
 */
import { PDFDocument } from 'pdf-lib';
import type { Engine } from '../lib/types.ts';
import { FolioError, readFailure } from '../lib/errors.ts';
import { openOfficeInput } from '../lib/office-to-pdf/sniff.ts';
import { openProtectedOffice, renderedPdfResult, withOpeningNotes } from '../lib/office-to-pdf/office-decrypt.ts';
import { renderPptx } from '../lib/office-to-pdf/pptx.ts';
import { renderOdp } from '../lib/office-to-pdf/odp.ts';
import { DOCUMENT_ENGINE, FontBook, fontNotes } from '../lib/office-to-pdf/fonts.ts';
import { reportingFirstDownloads } from '../lib/assets.ts';
import { ImageCache } from '../lib/office-to-pdf/text.ts';
import { baseName } from '../../../shared/format.ts';
import { writeHeadingsOutline } from '../lib/office-to-pdf/outline.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { libreOfficeReason, prepareOfficeEngines, runWithLibreOffice } from '../lib/libreoffice/libreoffice-office.ts';

/** Warm-up when the tool's window opens (and when LibreOffice is chosen): see prepareOfficeEngines. */
export const prepare = prepareOfficeEngines;

export const run: Engine = async ([given], options, { signal, progress }) => {
  if (!given) throw new FolioError('InvalidInput', 'Please select at least one file');
  // A file saved with a password is decrypted first (Excel's built-in one, else the one given), for either engine.
  const { input, notes: openingNotes } = await openProtectedOffice(given, { signal, progress });
  // The LibreOffice engine when chosen, and for legacy .ppt files (which only it reads).
  const reason = libreOfficeReason(input, options, 'pptx');
  if (reason)
    return withOpeningNotes(
      await runWithLibreOffice(input, options, { signal, progress }, 'pptx', reason),
      openingNotes,
    );
  const opened = await openOfficeInput(input.name, input.bytes, 'pptx');
  if (opened.kind === 'rtf')
    throw new FolioError('InvalidInput', `"${input.name}" is an RTF document: use the Word to PDF tool.`);
  const doc = await PDFDocument.create();
  doc.setTitle(baseName(input.name));
  doc.setCreator('Folio');
  const pages = String(options.pages ?? '').trim();
  let result;
  const fonts = new FontBook(doc);
  const images = new ImageCache(doc, fonts);
  try {
    const render = opened.kind === 'odp' ? renderOdp : renderPptx;
    result = await reportingFirstDownloads(progress, DOCUMENT_ENGINE, () =>
      render(
        opened.zip,
        doc,
        { fonts, images },
        {
          signal,
          progress,
          slides: (count) => parsePageRanges(pages, count),
          includeHidden: pages !== '', // slides chosen by number are printed even when hidden
        },
      ),
    );
  } catch (error) {
    throw readFailure(input.name, error);
  }
  if (result.pages === 0)
    throw new FolioError(
      'InvalidInput',
      result.notes.some((n) => n.includes('hidden slide'))
        ? `Every slide of "${input.name}" is hidden: choose slides by number (e.g. 1-3) to include them.`
        : `"${input.name}" has no slides.`,
    );
  if (options.outline !== false) writeHeadingsOutline(doc, result.outline);
  const notes = [...result.notes, ...images.notes, ...fontNotes(fonts)];
  return renderedPdfResult(doc, input.name, notes, openingNotes);
};

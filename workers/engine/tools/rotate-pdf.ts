/**
 * rotate-pdf: turns pages by 90, 180 or 270 degrees clockwise, added to each page's existing
 * /Rotate (inherited values included), for all pages or the `pages` chosen (page-range language,
 * or the thumbnails of the modal). Only /Rotate changes (and, by default, scripts and actions go:
 * lib/active-content.ts): content, links, forms and bookmarks stay.
 */
import type { Engine } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf-open.ts';
import { handleActiveContent } from '../lib/active-content.ts';
import { parsePageRanges } from '../lib/page-range.ts';
import { baseName, rotatePageBy, savePdf } from '../lib/pdf-util.ts';

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs.find((i) => !i.field);
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const angle = Number(options.angle ?? 90);
  if (![90, 180, 270, -90].includes(angle)) throw new FolioError('InvalidInput', `Rotation must be 90, 180 or 270 degrees, not "${String(options.angle)}".`);
  const { doc, wasEncrypted } = await openPdf(input);
  const active = handleActiveContent(doc, options);
  const pages = doc.getPages();
  const chosen = [...new Set(parsePageRanges(String(options.pages ?? ''), pages.length))];
  ctx.progress?.(0, chosen.length);
  chosen.forEach((n, i) => {
    throwIfAborted(ctx.signal);
    rotatePageBy(pages[n - 1], angle);
    ctx.progress?.(i + 1, chosen.length);
  });
  const bytes = await savePdf(doc);
  const notes = [`${chosen.length} of ${pages.length} page${pages.length === 1 ? '' : 's'} rotated by ${angle}°`];
  if (wasEncrypted) notes.push('The file was opened with its password; the result is not encrypted.');
  if (active.note) notes.push(active.note);
  return { bytes, filename: `${baseName(input.name)}-rotated.pdf`, mime: 'application/pdf', notes };
};

/**
 * rotate-pdf: turns pages by 90, 180 or 270 degrees clockwise, added to each page's existing
 * /Rotate (inherited values included), for all pages or the `pages` chosen (page-range language,
 * or the thumbnails of the modal). Only /Rotate changes (and, by default, scripts and actions go:
 * lib/pdf/active-content.ts): content, links, forms and bookmarks stay. qpdf (`--rotate`) does the work,
 * on the file read lazily (lib/pdf/qpdf-assembly.ts openForAssembly).
 */
import type { Engine } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { baseName } from '../../../shared/format.ts';
import { handleAssembledActiveContent } from '../lib/pdf/active-content.ts';
import { normalizeRotation, rotatePageBy, savePdf } from '../lib/pdf/pdf-util.ts';
import { openForAssembly, qpdfRange } from '../lib/pdf/qpdf-assembly.ts';
import { isReadLazily } from '../lib/pdf/pdf-lazy.ts';
import { runQpdf } from '../lib/pdf/qpdf.ts';

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs.find((i) => !i.field);
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const angle = Number(options.angle ?? 90);
  if (![90, 180, 270, -90].includes(angle))
    throw new FolioError('InvalidInput', `Rotation must be 90, 180 or 270 degrees, not "${String(options.angle)}".`);
  const opened = await openForAssembly(input);
  const pageCount = opened.doc.getPageCount();
  const chosen = [...new Set(parsePageRanges(String(options.pages ?? ''), pageCount))];
  ctx.progress?.(0, chosen.length);
  throwIfAborted(ctx.signal);
  // qpdf turns the pages and rewrites the file (objects shared, nothing else touched); pdf-lib when
  // qpdf cannot read the file or warns (exit 3: it repaired or dropped something, maybe content).
  const qpdfAngle = normalizeRotation(angle);
  const rotation = `--rotate=+${qpdfAngle}:${qpdfRange(chosen.map((n) => n - 1))}`;
  const result = await runQpdf([rotation, '/in.pdf', '/out.pdf'], {
    inputs: { '/in.pdf': opened.bytes },
    outputs: ['/out.pdf'],
  });
  let bytes = result.exitCode === 0 ? result.files['/out.pdf'] : undefined;
  if (!bytes) {
    const { doc } = isReadLazily(opened.doc) ? await openPdf(input) : opened;
    const pages = doc.getPages();
    for (const n of chosen) rotatePageBy(pages[n - 1], angle);
    bytes = await savePdf(doc);
  }
  const active = await handleAssembledActiveContent(bytes, options);
  bytes = active.bytes;
  ctx.progress?.(chosen.length, chosen.length);
  const notes = [`${chosen.length} of ${pageCount} page${pageCount === 1 ? '' : 's'} rotated by ${angle}°`];
  if (opened.wasEncrypted) notes.push('The file was opened with its password; the result is not encrypted.');
  if (active.note) notes.push(active.note);
  return { bytes, filename: `${baseName(input.name)}-rotated.pdf`, mime: 'application/pdf', notes };
};

/**
 * The note for pages whose Chinese, Japanese or Korean text was drawn without its font: the PDF does
 * not embed it and Folio's bundled Noto font could not be loaded (offline before the optional CJK
 * fonts were saved), so the canvas drew it as empty boxes (workers/engine/lib/pdf/pdfjs-cjk-fallback.ts).
 * The same words from every tool that draws pages (PDF → JPG, OCR) and from the page previews.
 */

/** What was drawn: a tool's result (pictures of pages, OCR), or the page previews of a picked file. */
export type DrawnFor = 'result' | 'previews';

const WHERE: Record<DrawnFor, { shows: string; again: string }> = {
  result: { shows: 'it may show', again: 'Convert again while online' },
  previews: { shows: 'the page previews may show it', again: 'Pick the file again while online' },
};

export function cjkFontNote(pages: number[], drawnFor: DrawnFor = 'result'): string {
  const { shows, again } = WHERE[drawnFor];
  return (
    `${pages.length === 1 ? 'Page' : 'Pages'} ${pageList(pages)}: Chinese/Japanese/Korean text is in fonts the ` +
    `PDF does not include, and Folio's font for it could not be loaded, so ${shows} as empty boxes. ` +
    `${again}, or first save "Chinese, Japanese and Korean fonts" for offline use (About page).`
  );
}

/** "2, 5–7, 9": ascending pages with runs joined. */
function pageList(pages: number[]): string {
  const runs: [number, number][] = [];
  for (const page of [...new Set(pages)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && page === last[1] + 1) last[1] = page;
    else runs.push([page, page]);
  }
  return runs.map(([first, end]) => (first === end ? `${first}` : `${first}–${end}`)).join(', ');
}

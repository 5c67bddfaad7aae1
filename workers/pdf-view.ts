/**
 * pdf.js in the page itself (not in the engine worker), for showing a document while the user works
 * on it: the editor's pages and the watermark preview. It is the engines' own pdf.js set-up
 * (workers/engine/lib/pdf/pdfjs.ts: our origin's cmaps and fonts, passwords as FolioErrors), so a
 * page looks and fails the same in the preview as in the result. With workers/bridge.ts, this is
 * what the UI may use of workers/ (eslint.config.js enforces it).
 */
export { openPdfjs, renderPage, type PDFDocumentProxy } from './engine/lib/pdf/pdfjs.ts';

import type { PDFDocumentProxy } from './pdfjs.ts';
import type { TextItem } from './pdf-layout.ts';

export interface Recogniser {
  recognisePage(doc: PDFDocumentProxy, pageNumber: number, signal?: AbortSignal): Promise<TextItem[]>;
  terminate(): Promise<void>;
}

export async function createRecogniser(signal?: AbortSignal): Promise<Recogniser> {
  void signal;
  throw new Error('OCR is not available yet');
}

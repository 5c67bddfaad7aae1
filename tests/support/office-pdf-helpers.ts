/** Shared by the Office → PDF tests: run an engine on bytes, read the PDF's text back, check it with qpdf. */
import { expect } from 'vitest';
import JSZip from 'jszip';
import { Document, Packer, Paragraph } from 'docx';
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import type { Engine, EngineResult } from '../../workers/engine/lib/types.ts';
import { pageTexts, qpdfCheck } from './pdf.ts';

/** Each page's text, whitespace collapsed. */
export const texts = (result: EngineResult): Promise<string[]> => pageTexts(result.bytes, { collapse: true });

export async function expectValidPdf(result: EngineResult): Promise<void> {
  const check = await qpdfCheck(result.bytes);
  expect(check.exitCode, check.output).toBe(0);
  expect(result.mime).toBe('application/pdf');
}

export function convert(
  engine: Engine,
  name: string,
  bytes: Uint8Array | ArrayBuffer | Buffer,
  options = {},
): Promise<EngineResult> {
  return engine([{ name, bytes: new Uint8Array(bytes as ArrayBuffer) }], options, {});
}

/** A .docx (the docx package's defaults: A4, 1 inch margins) whose body is the WordprocessingML `body`. */
export async function docxWithBody(body: string): Promise<Uint8Array> {
  const base = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('PLACEHOLDER')] }] }));
  const zip = await JSZip.loadAsync(base);
  const xml = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', xml.replace(/<w:p>(?:(?!<w:p>).)*PLACEHOLDER.*?<\/w:p>/s, body));
  return zip.generateAsync({ type: 'uint8array' });
}

/** The decoded content stream(s) of a page (0-based), as text. */
export async function pageContent(bytes: Uint8Array, index: number): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const contents = doc.getPage(index).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  return streams
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => new TextDecoder('latin1').decode(decodePDFRawStream(s).decode()))
    .join('\n');
}

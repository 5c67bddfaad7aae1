/** PDF → Excel in tests: the first sheet of Folio's workbook for a PDF, as a grid of values. */
import ExcelJS from 'exceljs';
import { sheetGrid } from './office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-excel.ts';

export async function firstSheet(pdf: Uint8Array, sheets: 'table' | 'page') {
  const bytes = (await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
}

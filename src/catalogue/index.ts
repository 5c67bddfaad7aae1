/** All 25 tools, in the spec's id order (spec §3). Lists in the UI come from sections.ts. */
import type { FileToolEntry, ToolEntry, ToolId, UtilityToolEntry } from './types.ts';
import { tool as mergePdf } from './tools/merge-pdf.ts';
import { tool as splitPdf } from './tools/split-pdf.ts';
import { tool as compressPdf } from './tools/compress-pdf.ts';
import { tool as pdfToWord } from './tools/pdf-to-word.ts';
import { tool as wordToPdf } from './tools/word-to-pdf.ts';
import { tool as pdfToPpt } from './tools/pdf-to-ppt.ts';
import { tool as pptToPdf } from './tools/ppt-to-pdf.ts';
import { tool as pdfToExcel } from './tools/pdf-to-excel.ts';
import { tool as excelToPdf } from './tools/excel-to-pdf.ts';
import { tool as pdfToJpg } from './tools/pdf-to-jpg.ts';
import { tool as jpgToPdf } from './tools/jpg-to-pdf.ts';
import { tool as organizePdf } from './tools/organize-pdf.ts';
import { tool as editPdf } from './tools/edit-pdf.ts';
import { tool as rotatePdf } from './tools/rotate-pdf.ts';
import { tool as unlockPdf } from './tools/unlock-pdf.ts';
import { tool as protectPdf } from './tools/protect-pdf.ts';
import { tool as addWatermark } from './tools/add-watermark.ts';
import { tool as imageCompressor } from './tools/image-compressor.ts';
import { tool as passwordGenerator } from './tools/password-generator.ts';
import { tool as wordCounter } from './tools/word-counter.ts';
import { tool as ageCalculator } from './tools/age-calculator.ts';
import { tool as bmiCalculator } from './tools/bmi-calculator.ts';
import { tool as colorPicker } from './tools/color-picker.ts';
import { tool as unitConverter } from './tools/unit-converter.ts';
import { tool as jsonFormatter } from './tools/json-formatter.ts';

export const tools: readonly ToolEntry[] = [
  mergePdf, splitPdf, compressPdf, pdfToWord, wordToPdf, pdfToPpt, pptToPdf, pdfToExcel, excelToPdf,
  pdfToJpg, jpgToPdf, organizePdf, editPdf, rotatePdf, unlockPdf, protectPdf, addWatermark,
  imageCompressor, passwordGenerator, wordCounter, ageCalculator, bmiCalculator, colorPicker,
  unitConverter, jsonFormatter,
];

const byId = new Map<string, ToolEntry>(tools.map((tool) => [tool.id, tool]));

/** The entry for an id, or undefined for anything that is not a catalogue id (e.g. a bad URL). */
export function findTool(id: string | undefined): ToolEntry | undefined {
  return id === undefined ? undefined : byId.get(id);
}

export function getTool(id: ToolId): ToolEntry {
  const tool = byId.get(id);
  if (!tool) throw new Error(`Unknown tool id: ${id}`);
  return tool;
}

export const fileTools: readonly FileToolEntry[] = tools.filter((t): t is FileToolEntry => t.kind === 'file');
export const utilityTools: readonly UtilityToolEntry[] = tools.filter((t): t is UtilityToolEntry => t.kind === 'utility');

/** The form values a tool starts with: every option's default. */
export function defaultValues(tool: FileToolEntry): Record<string, string | number | boolean> {
  return Object.fromEntries(tool.options.map((o) => [o.name, o.default]));
}

/** Turns headings found by the layout (level, title, page, position) into the PDF's bookmarks. */
import { PDFName, PDFNull, PDFNumber, type PDFDocument } from 'pdf-lib';
import { writeOutline, type OutlineNode } from '../pdf/page-copy.ts';
import type { OutlineEntry } from './flow.ts';

export function writeHeadingsOutline(doc: PDFDocument, entries: readonly OutlineEntry[]): void {
  const roots: OutlineNode[] = [];
  const stack: Array<{ level: number; node: OutlineNode }> = [];
  for (const entry of entries) {
    const page = doc.getPage(entry.pageIndex);
    const dest = doc.context.obj([page.ref, PDFName.of('XYZ'), PDFNull, PDFNumber.of(Math.round(entry.top)), PDFNull]);
    const node: OutlineNode = { title: entry.title, dest, open: entry.level < 1, children: [] };
    while (stack.length && stack[stack.length - 1].level >= entry.level) stack.pop();
    (stack.length ? stack[stack.length - 1].node.children : roots).push(node);
    stack.push({ level: entry.level, node });
  }
  writeOutline(doc, roots);
}

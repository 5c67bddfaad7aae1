/**
 * Reads a .docx (WordprocessingML) into sections of the layout model: styles with inheritance
 * (document defaults → style chain → direct formatting), theme fonts, numbered and bulleted lists,
 * tables with spans, merges, shading and borders, inline images, charts and SmartArt, page and line
 * breaks, footnotes and endnotes, headers and footers with PAGE / NUMPAGES fields, and each
 * section's page size and margins. The parts share one DocxContext (context.ts).
 */
import type JSZip from 'jszip';
import type { Block, Inline, Section } from '../model.ts';
import { paragraph as makeParagraph } from '../model.ts';
import { find, kid, parseXml, zipText, type XmlElement } from '../xml.ts';
import { createDocxContext } from './context.ts';
import { readBlocks } from './blocks.ts';
import { inheritHeaders, pageSetup } from './sections.ts';

export { conditionalTypes, tableLook, type TableLook } from './tables.ts';

export interface DocxReadResult {
  sections: Section[];
  /** Things the renderer left out (e.g. "2 images in EMF format"), shown to the user. */
  notes: string[];
}

/** Word's endnote separator: a short rule above the notes. */
function endnoteRule(): Inline {
  return {
    kind: 'drawing',
    width: 144,
    height: 6,
    prepare: async () => (page, x, bottom) =>
      page.drawLine({ start: { x, y: bottom + 3 }, end: { x: x + 144, y: bottom + 3 }, thickness: 0.5 }),
  };
}

export async function readDocx(zip: JSZip): Promise<DocxReadResult> {
  const documentPath = 'word/document.xml';
  const documentXml = await zipText(zip, documentPath);
  if (!documentXml) throw new Error('word/document.xml is missing');
  const ctx = await createDocxContext(zip, documentPath);
  const body = find(parseXml(documentXml), 'w:body');
  if (!body) throw new Error('The document has no body');
  const sections: Section[] = [];
  let pending: Block[] = [];
  const sectionEnds: Array<{ blocks: Block[]; sectPr: XmlElement }> = [];
  await readBlocks(
    ctx,
    body,
    ctx.rels,
    (block) => pending.push(block),
    (sectPr) => {
      sectionEnds.push({ blocks: pending, sectPr });
      pending = [];
    },
  );
  for (const end of sectionEnds) sections.push({ ...(await pageSetup(ctx, end.sectPr)), blocks: end.blocks });
  const last = await pageSetup(ctx, kid(body, 'w:sectPr'));
  const previousHeader = sections[sections.length - 1];
  if (ctx.endnoteBlocks.length) pending.push(makeParagraph([endnoteRule()], { spaceBefore: 12 }), ...ctx.endnoteBlocks);
  sections.push({ ...last, blocks: pending });
  inheritHeaders(sections, previousHeader);
  return {
    sections: sections.filter((s, i) => s.blocks.length > 0 || i === sections.length - 1),
    notes: [...ctx.notes],
  };
}

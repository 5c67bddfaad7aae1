/** Body-level content of a .docx part (the body, a header, a note, a text box, a content control). */
import type { Block } from '../model.ts';
import { kid, kids, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import { readParagraph } from './paragraph.ts';
import { readTable } from './tables.ts';

/** Reads body-level content in order, handing each block to `emit`; `onSection` marks a section end. */
export async function readBlocks(
  ctx: DocxContext,
  container: XmlElement,
  partRels: Rels,
  emit: (block: Block) => void,
  onSection?: (sectPr: XmlElement) => void,
): Promise<void> {
  for (const child of kids(container)) {
    if (child.nodeName === 'w:p') {
      (await readParagraph(ctx, child, partRels)).forEach(emit);
      const sectPr = kid(kid(child, 'w:pPr'), 'w:sectPr');
      if (sectPr && onSection) onSection(sectPr);
    } else if (child.nodeName === 'w:tbl') emit(await readTable(ctx, child, partRels));
    else if (child.nodeName === 'w:sdt')
      await readBlocks(ctx, kid(child, 'w:sdtContent') ?? child, partRels, emit, onSection);
    else if (child.nodeName === 'w:customXml') await readBlocks(ctx, child, partRels, emit, onSection);
  }
}

/** Body-level content of a .docx part (the body, a header, a note, a text box, a content control). */
import type { Block } from '../model.ts';
import { kid, kids, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import { ParagraphSpacing, readParagraph } from './paragraph.ts';
import { readTable } from './tables.ts';
import { frameKey, frameTable } from './frames.ts';

/** Reads body-level content in order, handing each block to `emit`; `onSection` marks a section end. */
export async function readBlocks(
  ctx: DocxContext,
  container: XmlElement,
  partRels: Rels,
  emit: (block: Block) => void,
  onSection?: (sectPr: XmlElement) => void,
): Promise<void> {
  const spacing = new ParagraphSpacing(ctx.paragraphSpacing);
  // Paragraphs of one text frame, gathered until a block outside it.
  let frame: { framePr: XmlElement; key: string; spacing: ParagraphSpacing; blocks: Block[] } | undefined;
  const endFrame = () => {
    if (frame) emit(frameTable(frame.framePr, frame.blocks));
    frame = undefined;
  };
  // Content controls and custom XML wrap paragraphs of the same container: one spacing runs through.
  const read = async (parent: XmlElement): Promise<void> => {
    for (const child of kids(parent)) {
      const framePr = child.nodeName === 'w:p' ? kid(kid(child, 'w:pPr'), 'w:framePr') : undefined;
      if (frame && (!framePr || frameKey(framePr) !== frame.key)) endFrame();
      if (framePr) {
        frame ??= { framePr, key: frameKey(framePr), spacing: new ParagraphSpacing(ctx.paragraphSpacing), blocks: [] };
        const paragraph = await readParagraph(ctx, child, partRels);
        frame.spacing.place(paragraph);
        frame.blocks.push(...paragraph.blocks.filter((block) => block.kind !== 'pageBreak'));
        // A framed paragraph that ends a section: the frame belongs to that section.
        const sectPr = kid(kid(child, 'w:pPr'), 'w:sectPr');
        if (sectPr && onSection) {
          endFrame();
          onSection(sectPr);
        }
      } else if (child.nodeName === 'w:p') {
        const paragraph = await readParagraph(ctx, child, partRels);
        spacing.place(paragraph);
        paragraph.blocks.forEach(emit);
        const sectPr = kid(kid(child, 'w:pPr'), 'w:sectPr');
        if (sectPr && onSection) onSection(sectPr);
      } else if (child.nodeName === 'w:tbl') {
        spacing.interrupt();
        emit(await readTable(ctx, child, partRels));
      } else if (child.nodeName === 'w:sdt') await read(kid(child, 'w:sdtContent') ?? child);
      else if (child.nodeName === 'w:customXml') await read(child);
    }
  };
  await read(container);
  endFrame();
}

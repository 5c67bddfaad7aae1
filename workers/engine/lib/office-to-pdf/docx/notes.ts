/**
 * Footnotes and endnotes: their parts (word/footnotes.xml, word/endnotes.xml), and a reference in the
 * text, which numbers the note and reads its text.
 */
import type JSZip from 'jszip';
import type { Block, Inline, RunStyle } from '../model.ts';
import { attr, kid, kids, parseXml, readRels, zipText, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import { readBlocks } from './blocks.ts';
import { formatNumber } from './numbering.ts';
import { onOff } from './styles.ts';

/** A footnotes or endnotes part: its notes by id (separators left out) and its own relationships. */
export interface NotesPart {
  byId: Map<string, XmlElement>;
  rels: Rels;
}

/** The footnotes or endnotes part the document's relationships name (none: an empty one). */
export async function readNotesPart(zip: JSZip, rels: Rels, kind: 'footnote' | 'endnote'): Promise<NotesPart> {
  const target = [...rels.values()].find((r) => r.type.endsWith(`/${kind}s`))?.target;
  const xml = target ? await zipText(zip, target) : undefined;
  const byId = new Map<string, XmlElement>();
  if (!target || !xml) return { byId, rels };
  for (const note of kids(parseXml(xml), `w:${kind}`))
    if (!attr(note, 'w:type')) byId.set(attr(note, 'w:id') ?? '', note);
  return { byId, rels: await readRels(zip, target) };
}

/**
 * A w:footnoteReference or w:endnoteReference: the note's number as a superscript mark here (unless
 * the author typed a custom mark); a footnote's text is returned for the foot of the page, an
 * endnote's is kept for after the document.
 */
export async function readNoteReference(
  ctx: DocxContext,
  reference: XmlElement,
  style: RunStyle,
): Promise<{ mark?: Inline; footnote?: Block[] }> {
  const kind = reference.nodeName === 'w:footnoteReference' ? 'footnote' : 'endnote';
  const part = kind === 'footnote' ? ctx.footnotes : ctx.endnotes;
  const note = part.byId.get(attr(reference, 'w:id') ?? '');
  if (!note) return {};
  const text = formatNumber(++ctx.noteCount[kind], ctx.noteFormat[kind]);
  const mark: Inline | undefined = onOff(kid(reference, 'w:customMarkFollows'))
    ? undefined
    : { kind: 'text', text, style: { ...style, baseline: 'super' } };
  const outer = ctx.currentNoteMark;
  ctx.currentNoteMark = text;
  const blocks: Block[] = [];
  await readBlocks(ctx, note, part.rels, (block) => {
    if (block.kind !== 'pageBreak') blocks.push(block);
  });
  ctx.currentNoteMark = outer;
  if (kind === 'endnote') {
    ctx.endnoteBlocks.push(...blocks);
    return { mark };
  }
  return { mark, footnote: blocks };
}

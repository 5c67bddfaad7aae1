/**
 * A w:p as blocks of the layout model: its properties resolved in layers (defaults, the table
 * style's text formatting, the paragraph style chain, direct formatting, the list level), its list
 * marker, and its runs; a page break inside the paragraph splits it in two.
 */
import type { Block, Inline, Paragraph } from '../model.ts';
import { paragraph as makeParagraph } from '../model.ts';
import { attr, kid, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import { listMarker } from './numbering.ts';
import { readRuns, runReader, type RunReader } from './runs.ts';
import {
  readParaProps,
  readRunProps,
  styleChain,
  styleRunProps,
  toStyle,
  TWIP,
  type ParaProps,
  type RunProps,
} from './styles.ts';

/** The paragraph's properties, its style and the run properties its text starts from. */
function paragraphProps(
  ctx: DocxContext,
  pPr: XmlElement | undefined,
): { props: ParaProps; paraRun: RunProps; styleId?: string } {
  const { styles } = ctx;
  const styleId = attr(kid(pPr, 'w:pStyle'), 'w:val') ?? styles.defaultParagraphStyle;
  const props: ParaProps = { ...styles.basePara };
  // A table style's text formatting sits between the defaults and the paragraph's style; its run
  // formatting (a bold, white header row) also wins over the default paragraph style ("Normal").
  const table = ctx.cellTextStyle;
  const overNormal = !attr(kid(pPr, 'w:pStyle'), 'w:val') || styleId === styles.defaultParagraphStyle;
  if (table) for (const el of table.pPr) readParaProps(el, props);
  for (const style of styleChain(styles, styleId)) readParaProps(style.pPr, props);
  readParaProps(pPr, props);
  // Headings by style name when the style does not carry an outline level itself.
  if (props.outlineLevel === undefined && styleId) {
    const heading = /^(?:heading|berschrift|titre)\s*(\d)$/i.exec(styleId);
    if (heading) props.outlineLevel = Number(heading[1]) - 1;
    else if (/^title$/i.test(styleId)) props.outlineLevel = 0;
  }
  const paraRun: RunProps = { ...styles.baseRun };
  if (table && !overNormal) for (const el of table.rPr) readRunProps(el, paraRun, styles.themeFonts);
  styleRunProps(styles, styleId, paraRun);
  if (table && overNormal) for (const el of table.rPr) readRunProps(el, paraRun, styles.themeFonts);
  return { props, paraRun, styleId };
}

/** The layout model's paragraph fields that every part of a split paragraph shares. */
function layoutProps(props: ParaProps): Partial<Paragraph> {
  const lineSpacing =
    (props.lineRule ?? 'auto') === 'auto'
      ? { rule: 'auto' as const, value: (props.line ?? 240) / 240 }
      : { rule: props.lineRule as 'exact' | 'atLeast', value: (props.line ?? 240) * TWIP };
  const borders = props.borders;
  // In a right-to-left paragraph Word reads "left" as the start: the right side of the page.
  const rtl = props.bidi === true;
  const align = props.align ?? 'left';
  return {
    direction: rtl ? 'rtl' : 'ltr',
    align: rtl && align === 'left' ? 'right' : rtl && align === 'right' ? 'left' : align,
    spaceBefore: props.spaceBefore ?? 0,
    spaceAfter: props.spaceAfter ?? 0,
    lineSpacing,
    indentLeft: (rtl ? props.indRight : props.indLeft) ?? 0,
    indentRight: (rtl ? props.indLeft : props.indRight) ?? 0,
    firstLine: props.firstLine ?? 0,
    shading: props.shading,
    outlineLevel: props.outlineLevel,
    tabStops: props.tabStops,
    borders: borders && (borders.top || borders.bottom || borders.left || borders.right) ? borders : undefined,
    keepNext: props.keepNext,
    keepLines: props.keepLines,
    widowControl: props.widowControl,
    noLineNumbers: props.suppressLineNumbers,
  };
}

/**
 * The paragraph's pieces as blocks: a page break inside splits it around a page break block; the
 * first part keeps the marker, page break before, floats, footnotes and bookmarks.
 */
function splitAtPageBreaks(reader: RunReader, props: ParaProps, marker: Paragraph['marker']): Block[] {
  const base = layoutProps(props);
  const { floats, footnotes, anchors } = reader;
  const blocks: Block[] = [];
  let current: Inline[] = [];
  let first = true;
  const flush = (last: boolean) => {
    if (current.length || last || first) {
      const inlines: Inline[] = current.length ? current : [{ kind: 'text', text: '', style: toStyle(reader.paraRun) }];
      blocks.push(
        makeParagraph(inlines, {
          ...base,
          marker: first ? marker : undefined,
          pageBreakBefore: first ? props.pageBreakBefore : false,
          floats: first && floats.length ? floats : undefined,
          footnotes: first && footnotes.length ? footnotes : undefined,
          anchors: first && anchors.length ? anchors : undefined,
        }),
      );
    }
    current = [];
    first = false;
  };
  for (const piece of reader.pieces) {
    if (piece.kind === 'pageBreakMark') {
      if (current.length) flush(false);
      blocks.push({ kind: 'pageBreak' });
    } else current.push(piece);
  }
  // A paragraph that ends with its page break leaves nothing on the next page (its mark stays beside
  // the break, as LibreOffice 7.4 prints Word's files), unless it has something to carry there.
  const carries = first && Boolean(marker || floats.length || footnotes.length || anchors.length);
  if (current.length || blocks.length === 0 || carries) flush(true);
  return blocks;
}

/** A w:p read: its blocks, and what the space between it and the paragraphs around it depends on. */
export interface ReadParagraph {
  blocks: Block[];
  styleId?: string;
  contextualSpacing: boolean;
}

export async function readParagraph(ctx: DocxContext, p: XmlElement, partRels: Rels): Promise<ReadParagraph> {
  const pPr = kid(p, 'w:pPr');
  const { props, paraRun, styleId } = paragraphProps(ctx, pPr);
  const marker = listMarker(ctx.numbering, props, pPr, paraRun, ctx.styles.themeFonts);
  const reader = runReader(ctx, partRels, paraRun);
  await readRuns(reader, p);
  return {
    blocks: splitAtPageBreaks(reader, reader.mathAlign ? { ...props, align: reader.mathAlign } : props, marker),
    styleId,
    contextualSpacing: props.contextualSpacing === true,
  };
}

export type SpacingRule = 'larger' | 'sum';

/**
 * The space between consecutive paragraphs of one container (the body, a cell, a header, a note, a
 * text box). ISO/IEC 29500-1 §17.3.1.33: the larger of the first's space after and the second's
 * space before ('larger'); 'sum' adds them (DocxContext.paragraphSpacing says which). The layout adds
 * each paragraph's own spacing, so under 'larger' the second's space before is cut to what the
 * first's space after leaves. §17.3.1.9, w:contextualSpacing: a paragraph next to one of the same
 * style drops its own side — when only the first drops its after, Word leaves max(before − after, 0).
 * Anything else between two paragraphs (a table) keeps both spacings.
 */
export class ParagraphSpacing {
  private previous?: { paragraph: Paragraph; styleId?: string; contextual: boolean };

  constructor(private readonly rule: SpacingRule) {}

  /** The next paragraph of the container. */
  place(read: ReadParagraph): void {
    const first = read.blocks[0];
    const previous = this.previous;
    if (previous && first?.kind === 'paragraph') {
      const sameStyle = previous.styleId === read.styleId;
      const after = previous.paragraph.spaceAfter;
      if (sameStyle && previous.contextual) previous.paragraph.spaceAfter = 0;
      if (sameStyle && read.contextualSpacing) first.spaceBefore = 0;
      else if (this.rule === 'larger') first.spaceBefore = Math.max(0, first.spaceBefore - after);
    }
    const last = read.blocks[read.blocks.length - 1];
    this.previous =
      last?.kind === 'paragraph'
        ? { paragraph: last, styleId: read.styleId, contextual: read.contextualSpacing }
        : undefined;
  }

  /** Something other than a paragraph comes next. */
  interrupt(): void {
    this.previous = undefined;
  }
}

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

/** The paragraph's properties and the run properties its text starts from. */
function paragraphProps(ctx: DocxContext, pPr: XmlElement | undefined): { props: ParaProps; paraRun: RunProps } {
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
  return { props, paraRun };
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
  if (current.length || blocks.length === 0 || blocks[blocks.length - 1].kind === 'pageBreak') flush(true);
  return blocks;
}

export async function readParagraph(ctx: DocxContext, p: XmlElement, partRels: Rels): Promise<Block[]> {
  const pPr = kid(p, 'w:pPr');
  const { props, paraRun } = paragraphProps(ctx, pPr);
  const marker = listMarker(ctx.numbering, props, pPr, paraRun, ctx.styles.themeFonts);
  const reader = runReader(ctx, partRels, paraRun);
  await readRuns(reader, p);
  return splitAtPageBreaks(reader, props, marker);
}

/**
 * Sections (w:sectPr): page size, orientation, margins and columns, and the headers and footers of
 * the first, even and other pages; a section without its own inherits the previous section's.
 */
import type { Block, LineNumbers, PageBorders, PageSetup, Section } from '../model.ts';
import type { NumberStyle } from '../list-numbers.ts';
import { attr, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from '../xml.ts';
import type { DocxContext } from './context.ts';
import { readBlocks } from './blocks.ts';
import { borderOf, onOff, readRunProps, styleChain, styleRunProps, toStyle, TWIP } from './styles.ts';

type SectionSetup = Pick<
  Section,
  | 'page'
  | 'header'
  | 'footer'
  | 'firstPage'
  | 'evenPages'
  | 'columns'
  | 'continuous'
  | 'lineNumbers'
  | 'pageNumbers'
  | 'verticalAlign'
  | 'pageBorders'
>;

/** Design › Page Borders (w:pgBorders): each side's line, its distance, and the pages that have them. */
function pageBordersOf(sectPr: XmlElement | undefined): PageBorders | undefined {
  const borders = kid(sectPr, 'w:pgBorders');
  if (!borders) return undefined;
  const sides: PageBorders['sides'] = {};
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const element = kid(borders, `w:${side}`);
    const line = borderOf(element);
    if (line) sides[side] = { ...line, space: num(element, 'w:space') ?? 0 };
  }
  if (Object.keys(sides).length === 0) return undefined;
  const display = attr(borders, 'w:display');
  return {
    from: attr(borders, 'w:offsetFrom') === 'page' ? 'page' : 'text',
    pages: display === 'firstPage' ? 'first' : display === 'notFirstPage' ? 'notFirst' : 'all',
    sides,
  };
}

/**
 * Insert › Page Number › Format (w:pgNumType): the style of the section's PAGE fields (i, ii, iii in a
 * report's front matter; listNumber's styles, others as decimal) and where its count restarts.
 */
function pageNumbersOf(sectPr: XmlElement | undefined): Section['pageNumbers'] {
  const type = kid(sectPr, 'w:pgNumType');
  const start = num(type, 'w:start');
  const style = attr(type, 'w:fmt') as NumberStyle | undefined;
  return start === undefined && style === undefined ? undefined : { start, style };
}

/**
 * Layout › Line Numbers (w:lnNumType; none without w:countBy, as in Word). w:start is 0-based (Word
 * writes 4 for "Start at 5"); "Auto" distance is Word's 0.25 inch. The numbers are in the Line Number
 * character style, over the default paragraph style's font.
 */
function lineNumbersOf(ctx: DocxContext, sectPr: XmlElement | undefined): LineNumbers | undefined {
  const type = kid(sectPr, 'w:lnNumType');
  const countBy = num(type, 'w:countBy') ?? 0;
  if (!type || countBy < 1) return undefined;
  const { styles } = ctx;
  const run = { ...styles.baseRun };
  for (const style of styleChain(styles, styles.defaultParagraphStyle)) readRunProps(style.rPr, run, styles.themeFonts);
  const restart = attr(type, 'w:restart');
  return {
    start: Math.max(0, num(type, 'w:start') ?? 0) + 1,
    countBy,
    distance: (num(type, 'w:distance') || 360) * TWIP,
    restart: restart === 'continuous' || restart === 'newSection' ? restart : 'newPage',
    style: toStyle(styleRunProps(styles, 'LineNumber', run)),
  };
}

/** A header or footer part, by its relationship id from the document. */
async function readPart(ctx: DocxContext, rId: string | undefined): Promise<Block[] | undefined> {
  const rel = rId ? ctx.rels.get(rId) : undefined;
  const xml = rel ? await zipText(ctx.zip, rel.target) : undefined;
  if (!rel || !xml) return undefined;
  const blocks: Block[] = [];
  await readBlocks(ctx, parseXml(xml), await readRels(ctx.zip, rel.target), (block) => blocks.push(block));
  return blocks;
}

/**
 * The page of a section. The gutter (room for binding, w:pgMar w:gutter) widens the left margin, the
 * top one with w:gutterAtTop in the settings, the right one in a right-to-left section (w:rtlGutter).
 */
function pageOf(sectPr: XmlElement | undefined, gutterAtTop: boolean): PageSetup {
  const size = kid(sectPr, 'w:pgSz');
  const margin = kid(sectPr, 'w:pgMar');
  let width = (num(size, 'w:w') ?? 11906) * TWIP;
  let height = (num(size, 'w:h') ?? 16838) * TWIP;
  if (attr(size, 'w:orient') === 'landscape' && width < height) [width, height] = [height, width];
  const gutter = Math.max(0, num(margin, 'w:gutter') ?? 0) * TWIP;
  const gutterSide = gutterAtTop ? 'top' : onOff(kid(sectPr, 'w:rtlGutter')) ? 'right' : 'left';
  const side = (name: 'top' | 'right' | 'bottom' | 'left', fallback: number) =>
    Math.abs(num(margin, `w:${name}`) ?? fallback) * TWIP + (gutterSide === name ? gutter : 0);
  return {
    width,
    height,
    margin: {
      top: side('top', 1440),
      right: side('right', 1440),
      bottom: side('bottom', 1440),
      left: side('left', 1440),
    },
    headerDistance: (num(margin, 'w:header') ?? 720) * TWIP,
    footerDistance: (num(margin, 'w:footer') ?? 720) * TWIP,
  };
}

export async function pageSetup(ctx: DocxContext, sectPr: XmlElement | undefined): Promise<SectionSetup> {
  const page = { ...pageOf(sectPr, ctx.gutterAtTop), ...(ctx.mirrorMargins ? { mirrored: true } : {}) };
  const partOf = (tag: string, type: 'default' | 'first' | 'even') =>
    readPart(
      ctx,
      attr(
        kids(sectPr, tag).find((ref) => (attr(ref, 'w:type') ?? 'default') === type),
        'r:id',
      ),
    );
  const variant = async (type: 'first' | 'even') => ({
    header: await partOf('w:headerReference', type),
    footer: await partOf('w:footerReference', type),
  });
  const cols = kid(sectPr, 'w:cols');
  const columnCount = num(cols, 'w:num') ?? 1;
  return {
    page,
    columns:
      columnCount > 1
        ? {
            count: columnCount,
            gap: (num(cols, 'w:space') ?? 720) * TWIP,
            rule: ['1', 'true', 'on'].includes(attr(cols, 'w:sep') ?? ''),
          }
        : undefined,
    continuous: attr(kid(sectPr, 'w:type'), 'w:val') === 'continuous',
    header: await partOf('w:headerReference', 'default'),
    footer: await partOf('w:footerReference', 'default'),
    firstPage: onOff(kid(sectPr, 'w:titlePg')) ? await variant('first') : undefined,
    evenPages: ctx.evenAndOddHeaders ? await variant('even') : undefined,
    lineNumbers: lineNumbersOf(ctx, sectPr),
    pageNumbers: pageNumbersOf(sectPr),
    pageBorders: pageBordersOf(sectPr),
    // Layout › Page Setup › Vertical alignment ("both", justified, is laid out from the top).
    verticalAlign: ((v) => (v === 'center' || v === 'bottom' ? v : undefined))(attr(kid(sectPr, 'w:vAlign'), 'w:val')),
  };
}

/** Sections without their own header/footer inherit the previous section's (as Word does). */
export function inheritHeaders(sections: Section[], previous: Section | undefined): void {
  for (const section of sections) {
    if (previous && section !== previous) {
      section.header ??= previous.header;
      section.footer ??= previous.footer;
      if (section.firstPage) {
        section.firstPage.header ??= previous.firstPage?.header;
        section.firstPage.footer ??= previous.firstPage?.footer;
      }
      if (section.evenPages) {
        section.evenPages.header ??= previous.evenPages?.header;
        section.evenPages.footer ??= previous.evenPages?.footer;
      }
    }
    previous = section;
  }
}

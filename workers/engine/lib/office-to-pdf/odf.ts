/**
 * Shared OpenDocument (ODF 1.2/1.3) reading for odt.ts, ods.ts and odp.ts: lengths, colours, the
 * style sheet (default styles → parent chain → automatic style), list styles, page layouts and
 * master pages, and a reader that turns text content (text:p, text:h, text:list, table:table,
 * draw:frame images) into blocks of the layout model.
 */
import type JSZip from 'jszip';
import type {
  Block,
  Border,
  Inline,
  Paragraph,
  PageSetup,
  Rgb,
  RunStyle,
  Section,
  Table,
  TableCell,
  TableRow,
  Underline,
} from './model.ts';
import { paragraph as makeParagraph } from './model.ts';
import { attr, find, imageMime, kid, kids, length, num, parseXml, type XmlElement } from './xml.ts';
import { mathInline, type MathNode } from './math.ts';
import { readMathMl } from './mathml.ts';
import type { ImageMime } from './images.ts';
import { listNumber, type NumberStyle } from './list-numbers.ts';

/**
 * The underline of ODF text properties whose style:text-underline-style is `lineStyle` (solid,
 * dotted, dash, long-dash, dot-dash, dot-dot-dash, wave; none), with its type (double), width
 * (bold), mode (skip-white-space) and colour (font-color or #rrggbb).
 */
function odfUnderline(props: XmlElement, lineStyle: string): Underline | undefined {
  if (lineStyle === 'none' || attr(props, 'style:text-underline-type') === 'none') return undefined;
  const line: Underline['line'] =
    lineStyle === 'wave'
      ? 'wave'
      : lineStyle === 'dotted'
        ? 'dotted'
        : lineStyle.includes('dash')
          ? 'dashed'
          : attr(props, 'style:text-underline-type') === 'double'
            ? 'double'
            : 'single';
  const width = attr(props, 'style:text-underline-width');
  const color = odfColor(attr(props, 'style:text-underline-color'));
  return {
    line,
    ...(width === 'bold' || width === 'thick' ? { heavy: true } : {}),
    ...(attr(props, 'style:text-underline-mode') === 'skip-white-space' ? { wordsOnly: true } : {}),
    ...(color ? { color } : {}),
  };
}

/** Longest repeat we expand (number-rows-repeated / number-columns-repeated can be 1 048 576). */
export const MAX_REPEAT = 1024;

/** '#ff0000' → [1, 0, 0]; undefined for 'transparent' or malformed values. */
export function odfColor(value: string | undefined): Rgb | undefined {
  const match = value ? /^#([0-9a-f]{6})$/i.exec(value.trim()) : null;
  if (!match) return undefined;
  const hex = match[1];
  return [
    parseInt(hex.slice(0, 2), 16) / 255,
    parseInt(hex.slice(2, 4), 16) / 255,
    parseInt(hex.slice(4, 6), 16) / 255,
  ];
}

/** '0.5pt solid #000000' → a border; undefined for 'none'. */
export function odfBorder(value: string | undefined): Border | undefined {
  if (!value || /\bnone\b|\bhidden\b/.test(value)) return undefined;
  const width = value
    .split(/\s+/)
    .map(length)
    .find((n) => n !== undefined);
  const color = /#[0-9a-f]{6}/i.exec(value)?.[0];
  return { width: Math.max(0.25, width ?? 0.5), color: odfColor(color) ?? [0, 0, 0] };
}

export function repeat(element: XmlElement, name: string): number {
  const n = Number(attr(element, name) ?? 1);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/** All styles of a package (styles.xml, then content.xml), looked up by family and name. */
export class OdfStyles {
  private readonly styles = new Map<string, XmlElement>();
  private readonly defaults = new Map<string, XmlElement>();
  readonly listStyles = new Map<string, XmlElement>();
  /** Chapter numbering of headings (Tools ▸ Heading Numbering). */
  outlineStyle: XmlElement | undefined;
  readonly pageLayouts = new Map<string, XmlElement>();
  readonly masterPages = new Map<string, XmlElement>();
  readonly masterOrder: string[] = [];
  private readonly fonts = new Map<string, string>();

  add(root: XmlElement | undefined): void {
    if (!root) return;
    for (const face of kids(kid(root, 'office:font-face-decls'), 'style:font-face')) {
      const family = attr(face, 'svg:font-family');
      if (family) this.fonts.set(attr(face, 'style:name') ?? '', family.replace(/^['"]|['"]$/g, ''));
    }
    for (const group of [kid(root, 'office:styles'), kid(root, 'office:automatic-styles')]) {
      for (const el of kids(group)) {
        const name = attr(el, 'style:name');
        if (el.nodeName === 'style:style' && name) this.styles.set(`${attr(el, 'style:family')}:${name}`, el);
        else if (el.nodeName === 'style:default-style') this.defaults.set(attr(el, 'style:family') ?? '', el);
        else if (el.nodeName === 'text:list-style' && name) this.listStyles.set(name, el);
        else if (el.nodeName === 'text:outline-style') this.outlineStyle = el;
        else if (el.nodeName === 'style:page-layout' && name) this.pageLayouts.set(name, el);
        // Number styles (number:*-style) are not needed: the display text is in the cells.
      }
    }
    for (const master of kids(kid(root, 'office:master-styles'), 'style:master-page')) {
      const name = attr(master, 'style:name') ?? '';
      if (!this.masterPages.has(name)) this.masterOrder.push(name);
      this.masterPages.set(name, master);
    }
  }

  style(family: string, name: string | undefined): XmlElement | undefined {
    return name ? this.styles.get(`${family}:${name}`) : undefined;
  }

  /** The style and its ancestors, most general first (the family's default style at the start). */
  chain(family: string, name: string | undefined, withDefault = true): XmlElement[] {
    const chain: XmlElement[] = [];
    const seen = new Set<string>();
    while (name && !seen.has(name)) {
      seen.add(name);
      const style = this.style(family, name);
      if (!style) break;
      chain.unshift(style);
      name = attr(style, 'style:parent-style-name');
    }
    const fallback = this.defaults.get(family);
    if (withDefault && fallback) chain.unshift(fallback);
    return chain;
  }

  /** The most specific value of an attribute of a properties element (e.g. style:paragraph-properties). */
  prop(chain: XmlElement[], properties: string, name: string): string | undefined {
    for (let i = chain.length - 1; i >= 0; i--) {
      const value = attr(kid(chain[i], properties), name);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  fontFamily(name: string | undefined): string | undefined {
    return name ? (this.fonts.get(name) ?? name) : undefined;
  }

  /** Applies the text properties of each style of the chain, in order, to a run style. */
  runStyle(chain: XmlElement[], base: RunStyle): RunStyle {
    const style: RunStyle = { ...base };
    for (const el of chain) applyTextProperties(this, kid(el, 'style:text-properties'), style);
    return style;
  }

  /** The page size and margins of a master page; `header`/`footer` say whether they are shown. */
  pageSetup(masterName: string | undefined): {
    page: PageSetup;
    master?: XmlElement;
    pageStyle?: NumberStyle;
    columns?: Section['columns'];
  } {
    const master =
      this.masterPages.get(masterName ?? '') ??
      this.masterPages.get('Standard') ??
      this.masterPages.get('Default') ??
      this.masterPages.get(this.masterOrder[0] ?? '');
    const layout = this.pageLayouts.get(attr(master, 'style:page-layout-name') ?? '');
    const props = kid(layout, 'style:page-layout-properties');
    let width = length(attr(props, 'fo:page-width')) ?? 595.28;
    let height = length(attr(props, 'fo:page-height')) ?? 841.89;
    if (attr(props, 'style:print-orientation') === 'landscape' && width < height) [width, height] = [height, width];
    const margin = (side: string) =>
      length(attr(props, `fo:margin-${side}`)) ?? length(attr(props, 'fo:margin')) ?? 56.7;
    const page: PageSetup = {
      width,
      height,
      margin: { top: margin('top'), right: margin('right'), bottom: margin('bottom'), left: margin('left') },
      headerDistance: margin('top'),
      footerDistance: margin('bottom'),
      ...(attr(layout, 'style:page-usage') === 'mirrored' ? { mirrored: true } : {}),
    };
    // In ODF the page margin is the distance to the header; the body starts below the header's height.
    const furniture = (kind: 'header' | 'footer') => {
      const shown = kid(master, `style:${kind}`);
      if (!shown || attr(shown, 'style:display') === 'false') return 0;
      const hf = kid(kid(layout, `style:${kind}-style`), 'style:header-footer-properties');
      const size = length(attr(hf, 'svg:height')) ?? length(attr(hf, 'fo:min-height')) ?? 14;
      const gap = length(attr(hf, kind === 'header' ? 'fo:margin-bottom' : 'fo:margin-top')) ?? 7;
      return size + gap;
    };
    page.margin.top += furniture('header');
    page.margin.bottom += furniture('footer');
    // The page numbers' style (a report's front matter in i, ii, iii); '' (no number) is read as decimal.
    const numFormat = attr(props, 'style:num-format');
    return { page, master, pageStyle: numFormat ? odfNumberStyle(numFormat) : undefined, columns: odfColumns(props) };
  }
}

function applyTextProperties(styles: OdfStyles, props: XmlElement | undefined, style: RunStyle): void {
  if (!props) return;
  const font =
    styles.fontFamily(attr(props, 'style:font-name')) ?? attr(props, 'fo:font-family')?.replace(/^['"]|['"]$/g, '');
  if (font) style.font = font;
  const size = attr(props, 'fo:font-size');
  if (size?.endsWith('%')) style.size = (style.size * Number(size.slice(0, -1))) / 100 || style.size;
  else if (length(size)) style.size = length(size)!;
  const weight = attr(props, 'fo:font-weight');
  if (weight) style.bold = weight === 'bold' || Number(weight) >= 600;
  const italic = attr(props, 'fo:font-style');
  if (italic) style.italic = italic === 'italic' || italic === 'oblique';
  const underline = attr(props, 'style:text-underline-style');
  if (underline) style.underline = odfUnderline(props, underline);
  const strike = attr(props, 'style:text-line-through-style');
  if (strike) style.strike = strike !== 'none';
  const color = attr(props, 'fo:color');
  if (color) style.color = odfColor(color) ?? style.color;
  const background = attr(props, 'fo:background-color');
  if (background) style.highlight = odfColor(background);
  const letterSpacing = attr(props, 'fo:letter-spacing');
  if (letterSpacing) style.spacing = letterSpacing === 'normal' ? undefined : length(letterSpacing) || undefined;
  const position = attr(props, 'style:text-position');
  if (position) {
    const first = position.split(/\s+/)[0];
    style.baseline =
      first === 'super' || parseFloat(first) > 0
        ? 'super'
        : first === 'sub' || parseFloat(first) < 0
          ? 'sub'
          : undefined;
  }
}

/**
 * Text columns of a page layout's or a section's properties (style:columns): their count, the gap
 * (fo:column-gap, or the columns' own indents beside it), and whether a line separates them.
 */
export function odfColumns(properties: XmlElement | undefined): Section['columns'] {
  const columns = kid(properties, 'style:columns');
  const count = num(columns, 'fo:column-count') ?? 1;
  if (!columns || count < 2) return undefined;
  const [first, second] = kids(columns, 'style:column');
  const indents = (length(attr(first, 'fo:end-indent')) ?? 0) + (length(attr(second, 'fo:start-indent')) ?? 0);
  const sep = kid(columns, 'style:column-sep');
  return {
    count: Math.min(count, 16),
    gap: length(attr(columns, 'fo:column-gap')) ?? indents,
    rule: sep !== undefined && (attr(sep, 'style:style') ?? 'solid') !== 'none',
  };
}

/** The style of an ODF style:num-format ('1', 'a', 'A', 'i', 'I'; '' for no number). */
export function odfNumberStyle(format: string | undefined): NumberStyle {
  const styles: Record<string, NumberStyle> = {
    a: 'lowerLetter',
    A: 'upperLetter',
    i: 'lowerRoman',
    I: 'upperRoman',
    '': 'none',
  };
  return styles[format ?? '1'] ?? 'decimal';
}

/** A number in an ODF style:num-format. */
export function formatListNumber(n: number, format: string | undefined): string {
  return listNumber(n, odfNumberStyle(format));
}

/** Bullet characters from symbol fonts' private-use area → a Unicode bullet. */
function bulletText(text: string | undefined): string {
  if (!text) return '•';
  return text.charCodeAt(0) >= 0xe000 && text.charCodeAt(0) <= 0xf8ff ? '•' : text;
}

export interface OdfReaderOptions {
  zip: JSZip;
  styles: OdfStyles;
  notes: Set<string>;
  /** Run style before any paragraph style (the document's defaults come from the default styles). */
  baseRun: RunStyle;
  /** Width that tables without column widths share. */
  textWidth: number;
  /** Vertical alignment of table cells without one (Writer: top; Calc: bottom). */
  cellAlign?: TableCell['verticalAlign'];
  /** The sheet's name, for text:sheet-name fields in a Calc header or footer. */
  sheetName?: string;
}

interface ListContext {
  styleName: string | undefined;
  level: number;
}

/** Reads ODF text content into blocks of the layout model. */
export class OdfTextReader {
  private readonly counters = new Map<string, number[]>();
  private readonly headingCounts: number[] = [];
  private readonly imageData = new Map<string, Uint8Array>();

  constructor(private readonly options: OdfReaderOptions) {}

  get styles(): OdfStyles {
    return this.options.styles;
  }

  /** Block-level content of a container (office:text, a cell, a text box, a header). */
  async blocks(container: XmlElement | undefined, list?: ListContext): Promise<Block[]> {
    const out: Block[] = [];
    for (const child of kids(container)) out.push(...(await this.block(child, list)));
    return out;
  }

  async block(child: XmlElement, list?: ListContext): Promise<Block[]> {
    switch (child.nodeName) {
      case 'text:p':
      case 'text:h':
        return this.paragraph(child);
      case 'text:list':
        return this.list(child, list);
      case 'table:table':
        return [await this.table(child)];
      case 'text:section':
      case 'text:index-body':
      case 'text:index-title':
      case 'text:table-of-content':
      case 'text:alphabetical-index':
      case 'text:illustration-index':
      case 'text:table-index':
      case 'text:bibliography':
      case 'text:user-index':
      case 'text:object-index':
      case 'office:forms':
        return this.blocks(child, list);
      case 'draw:frame':
      case 'draw:a': {
        // A frame anchored to the page or paragraph at body level: its picture or text in the flow.
        const inlines: Inline[] = [];
        const extra: Block[] = [];
        await this.frame(child, inlines, extra);
        return [...(inlines.length ? [makeParagraph(inlines)] : []), ...extra];
      }
      default:
        return [];
    }
  }

  /** Paragraph properties of a paragraph style chain. */
  paragraphProps(chain: XmlElement[]): Omit<Paragraph, 'kind' | 'inlines'> & { breakAfter: boolean } {
    const p = (name: string) => this.styles.prop(chain, 'style:paragraph-properties', name);
    const align = p('fo:text-align');
    const lineHeight = p('fo:line-height');
    const atLeast = length(p('style:line-height-at-least'));
    let lineSpacing: Paragraph['lineSpacing'] = { rule: 'auto', value: 1 };
    if (lineHeight?.endsWith('%')) lineSpacing = { rule: 'auto', value: Number(lineHeight.slice(0, -1)) / 100 || 1 };
    else if (length(lineHeight)) lineSpacing = { rule: 'exact', value: length(lineHeight)! };
    else if (atLeast) lineSpacing = { rule: 'atLeast', value: atLeast };
    return {
      align:
        align === 'center'
          ? 'center'
          : align === 'end' || align === 'right'
            ? 'right'
            : align === 'justify'
              ? 'justify'
              : 'left',
      spaceBefore: length(p('fo:margin-top')) ?? 0,
      spaceAfter: length(p('fo:margin-bottom')) ?? 0,
      lineSpacing,
      indentLeft: length(p('fo:margin-left')) ?? 0,
      indentRight: length(p('fo:margin-right')) ?? 0,
      firstLine: length(p('fo:text-indent')) ?? 0,
      pageBreakBefore: p('fo:break-before') === 'page',
      breakAfter: p('fo:break-after') === 'page',
      shading: odfColor(p('fo:background-color')),
      noLineNumbers: p('text:number-lines') === 'false' || undefined,
    };
  }

  async paragraph(p: XmlElement, marker?: { text: string; indentLeft: number; firstLine: number }): Promise<Block[]> {
    const chain = this.styles.chain('paragraph', attr(p, 'text:style-name'));
    const props = this.paragraphProps(chain);
    const run = this.styles.runStyle(chain, this.options.baseRun);
    const inlines: Inline[] = [];
    const extra: Block[] = [];
    const headingNumber = p.nodeName === 'text:h' ? this.headingNumber(p) : '';
    if (headingNumber) inlines.push({ kind: 'text', text: `${headingNumber} `, style: run });
    await this.inlines(p, run, inlines, extra, { space: true });
    // Trailing white space does not count (ODF collapses it).
    const last = inlines[inlines.length - 1];
    if (last?.kind === 'text') last.text = last.text.replace(/ +$/, '');
    const { breakAfter, ...paragraphProps } = props;
    const explicitIndent = this.styles.prop(chain, 'style:paragraph-properties', 'fo:margin-left') !== undefined;
    const block = makeParagraph(inlines.length ? inlines : [{ kind: 'text', text: '', style: run }], {
      ...paragraphProps,
      ...(marker && !explicitIndent ? { indentLeft: marker.indentLeft, firstLine: marker.firstLine } : {}),
      marker: marker?.text ? { text: marker.text, style: { ...run, underline: undefined, strike: false } } : undefined,
      outlineLevel: p.nodeName === 'text:h' ? Math.max(0, Number(attr(p, 'text:outline-level') ?? 1) - 1) : undefined,
    });
    return [block, ...extra, ...(breakAfter ? [{ kind: 'pageBreak' as const }] : [])];
  }

  /** "2.1" for a heading when the outline style numbers its level (empty when it does not). */
  private headingNumber(h: XmlElement): string {
    const level = Math.max(1, Math.min(10, Number(attr(h, 'text:outline-level') ?? 1)));
    if (attr(h, 'text:is-list-header') === 'true') return '';
    const levels = kids(this.styles.outlineStyle);
    const levelStyle = levels.find((el) => Number(attr(el, 'text:level')) === level);
    const restart = attr(h, 'text:restart-numbering') === 'true' ? Number(attr(h, 'text:start-value') ?? 1) : undefined;
    this.headingCounts[level - 1] =
      restart ?? (this.headingCounts[level - 1] ?? Number(attr(levelStyle, 'text:start-value') ?? 1) - 1) + 1;
    this.headingCounts.length = level;
    const format = attr(levelStyle, 'style:num-format');
    if (!levelStyle || !format) return '';
    const shown = Math.max(1, Math.min(level, Number(attr(levelStyle, 'text:display-levels') ?? 1)));
    const numbers: string[] = [];
    for (let l = level - shown + 1; l <= level; l++) {
      const style = levels.find((el) => Number(attr(el, 'text:level')) === l);
      numbers.push(formatListNumber(this.headingCounts[l - 1] ?? 1, attr(style, 'style:num-format') || '1'));
    }
    return (
      `${attr(levelStyle, 'style:num-prefix') ?? ''}${numbers.join('.')}` +
      `${attr(levelStyle, 'style:num-suffix') ?? ''}`
    );
  }

  /** Walks a paragraph's content; `state.space` carries "the last character was white space" across spans. */
  private async inlines(
    node: XmlElement,
    style: RunStyle,
    out: Inline[],
    extra: Block[],
    state: { space: boolean },
  ): Promise<void> {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3 || child.nodeType === 4) {
        let text = (child.nodeValue ?? '').replace(/[ \t\r\n]+/g, ' ');
        if (state.space) text = text.replace(/^ /, '');
        if (!text) continue;
        state.space = text.endsWith(' ');
        out.push({ kind: 'text', text, style });
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as XmlElement;
      switch (el.nodeName) {
        case 'text:span': {
          const spanStyle = this.styles.runStyle(this.styles.chain('text', attr(el, 'text:style-name'), false), style);
          await this.inlines(el, spanStyle, out, extra, state);
          break;
        }
        case 'text:a': {
          // A hyperlink: its text, clickable when the address is a web, mail or phone link (pdf-links.ts decides).
          const href = attr(el, 'xlink:href');
          await this.inlines(el, href ? { ...style, link: href } : style, out, extra, state);
          break;
        }
        case 'text:s':
          out.push({ kind: 'text', text: ' '.repeat(Math.min(200, repeat(el, 'text:c'))), style });
          state.space = false;
          break;
        case 'text:tab':
          out.push({ kind: 'tab', style });
          state.space = false;
          break;
        case 'text:line-break':
          out.push({ kind: 'break', style });
          state.space = true;
          break;
        case 'text:page-number':
          out.push({ kind: 'field', field: 'PAGE', style });
          state.space = false;
          break;
        case 'text:page-count':
          out.push({ kind: 'field', field: 'NUMPAGES', style });
          state.space = false;
          break;
        case 'draw:frame':
        case 'draw:a':
          await this.frame(el, out, extra, style);
          state.space = false; // a space after a picture or a formula is kept
          break;
        case 'text:sheet-name':
          if (this.options.sheetName !== undefined) {
            out.push({ kind: 'text', text: this.options.sheetName, style });
            state.space = false;
          } else await this.inlines(el, style, out, extra, state);
          break;
        case 'text:number':
          break; // a producer's copy of the list label, which Folio computes itself
        case 'text:note':
          this.options.notes.add('footnotes and endnotes were left out');
          break;
        case 'office:annotation':
        case 'office:annotation-end':
        case 'text:bookmark':
        case 'text:bookmark-start':
        case 'text:bookmark-end':
        case 'text:soft-page-break':
        case 'text:reference-mark':
        case 'text:reference-mark-start':
        case 'text:reference-mark-end':
        case 'text:tracked-changes':
          break;
        case 'draw:custom-shape':
        case 'draw:rect':
        case 'draw:ellipse':
        case 'draw:line':
        case 'draw:g':
        case 'draw:polygon':
        case 'draw:path':
          this.options.notes.add('drawing shapes in text documents were left out');
          break;
        default:
          await this.inlines(el, style, out, extra, state); // text:date, text:sequence, fields: their shown text
      }
    }
  }

  /**
   * A draw:frame: a picture becomes an inline image, a formula (an object of MathML) an equation in
   * `style`'s size; a text box's content becomes blocks after the paragraph.
   */
  private async frame(frame: XmlElement, out: Inline[], extra: Block[], style?: RunStyle): Promise<void> {
    if (frame.nodeName === 'draw:a') {
      for (const inner of kids(frame, 'draw:frame')) await this.frame(inner, out, extra, style);
      return;
    }
    const formula = await this.formula(kid(frame, 'draw:object'));
    if (formula) {
      out.push(mathInline(formula, { ...(style ?? { size: 12 }), font: 'Liberation Serif', underline: undefined }));
      return;
    }
    const width = length(attr(frame, 'svg:width')) ?? 0;
    const height = length(attr(frame, 'svg:height')) ?? 0;
    const image = await this.image(frame);
    if (image) {
      out.push({ kind: 'image', bytes: image.bytes, mime: image.mime, width: width || 72, height: height || 72 });
      return;
    }
    const textBox = kid(frame, 'draw:text-box');
    if (textBox) {
      extra.push(...(await this.blocks(textBox)));
      return;
    }
    if (kid(frame, 'draw:object') || kid(frame, 'draw:object-ole'))
      this.options.notes.add('charts and embedded objects were left out');
  }

  /** An embedded object's formula: its content.xml when that is a <math> element (LibreOffice Math). */
  private async formula(object: XmlElement | undefined): Promise<MathNode | undefined> {
    const href = (attr(object, 'xlink:href') ?? '').replace(/^\.\//, '').replace(/\/$/, '');
    const file = href ? this.options.zip.file(`${href}/content.xml`) : null;
    if (!file) return undefined;
    const root = parseXml(await file.async('string'));
    return root.nodeName.replace(/^.*:/, '') === 'math' ? readMathMl(root) : undefined;
  }

  /**
   * The first raster draw:image of a frame (a frame may offer an SVG or a metafile with a PNG
   * fallback), else its first metafile (EMF/WMF, drawn by metafile/).
   */
  async image(frame: XmlElement): Promise<{ bytes: Uint8Array; mime: ImageMime } | undefined> {
    const images = kids(frame, 'draw:image');
    const metafile = (image: XmlElement) => /\.(emf|wmf)$/i.test(attr(image, 'xlink:href') ?? '');
    for (const image of [...images.filter((i) => !metafile(i)), ...images.filter(metafile)]) {
      const href = (attr(image, 'xlink:href') ?? '').replace(/^\.\//, '');
      const mime = imageMime(href);
      if (!mime) continue;
      let bytes = this.imageData.get(href);
      if (!bytes) {
        const file = this.options.zip.file(href);
        if (!file) continue;
        bytes = await file.async('uint8array');
        this.imageData.set(href, bytes);
      }
      return { bytes, mime };
    }
    if (images.length)
      this.options.notes.add(
        `images in ${(attr(images[0], 'xlink:href') ?? '').split('.').pop()?.toUpperCase() || 'embedded'} ` +
          `format were left out`,
      );
    return undefined;
  }

  /** A list: each item's first paragraph gets the level's bullet or number in its hanging indent. */
  async list(listEl: XmlElement, outer?: ListContext): Promise<Block[]> {
    const level = outer ? outer.level + 1 : 0;
    const styleName = attr(listEl, 'text:style-name') ?? outer?.styleName ?? this.paragraphListStyle(listEl);
    const key = styleName ?? '';
    if (level === 0 && attr(listEl, 'text:continue-numbering') !== 'true' && !attr(listEl, 'text:continue-list'))
      this.counters.set(key, []);
    const levelStyle = kids(this.styles.listStyles.get(key)).find(
      (el) => Number(attr(el, 'text:level') ?? 1) === level + 1,
    );
    const blocks: Block[] = [];
    for (const item of kids(listEl)) {
      if (item.nodeName !== 'text:list-item' && item.nodeName !== 'text:list-header') continue;
      let marker: { text: string; indentLeft: number; firstLine: number } | undefined;
      if (item.nodeName === 'text:list-item') {
        const counts = this.counters.get(key) ?? [];
        const start = Number(attr(levelStyle, 'text:start-value') ?? 1);
        const override = attr(item, 'text:start-value');
        counts[level] = override !== undefined ? Number(override) : (counts[level] ?? start - 1) + 1;
        counts.length = level + 1;
        this.counters.set(key, counts);
        marker = { text: this.markerText(levelStyle, counts, level), ...this.listIndent(levelStyle, level) };
      }
      let first = true;
      for (const child of kids(item)) {
        if ((child.nodeName === 'text:p' || child.nodeName === 'text:h') && first) {
          blocks.push(...(await this.paragraph(child, marker ?? { text: '', ...this.listIndent(levelStyle, level) })));
          first = false;
        } else if (child.nodeName === 'text:list') blocks.push(...(await this.list(child, { styleName, level })));
        else if (child.nodeName === 'text:p' || child.nodeName === 'text:h') {
          const indent = this.listIndent(levelStyle, level);
          blocks.push(...(await this.paragraph(child, { text: '', indentLeft: indent.indentLeft, firstLine: 0 })));
        } else blocks.push(...(await this.block(child, { styleName, level })));
      }
    }
    return blocks;
  }

  /** The list style named by the first paragraph's style (style:list-style-name), when the list names none. */
  private paragraphListStyle(listEl: XmlElement): string | undefined {
    const p = find(listEl, 'text:p') ?? find(listEl, 'text:h');
    const chain = this.styles.chain('paragraph', attr(p, 'text:style-name'));
    for (let i = chain.length - 1; i >= 0; i--) {
      const name = attr(chain[i], 'style:list-style-name');
      if (name) return name;
    }
    return undefined;
  }

  private markerText(levelStyle: XmlElement | undefined, counts: number[], level: number): string {
    if (
      !levelStyle ||
      levelStyle.nodeName === 'text:list-level-style-bullet' ||
      levelStyle.nodeName === 'text:list-level-style-image'
    ) {
      return bulletText(attr(levelStyle, 'text:bullet-char'));
    }
    const format = attr(levelStyle, 'style:num-format');
    if (format === undefined || format === '')
      return `${attr(levelStyle, 'style:num-prefix') ?? ''}${attr(levelStyle, 'style:num-suffix') ?? ''}`;
    const shown = Math.max(1, Math.min(level + 1, Number(attr(levelStyle, 'text:display-levels') ?? 1)));
    const numbers = counts.slice(level + 1 - shown, level + 1).map((n) => formatListNumber(n ?? 1, format));
    return (
      `${attr(levelStyle, 'style:num-prefix') ?? ''}${numbers.join('.')}` +
      `${attr(levelStyle, 'style:num-suffix') ?? ''}`
    );
  }

  private listIndent(levelStyle: XmlElement | undefined, level: number): { indentLeft: number; firstLine: number } {
    const props = kid(levelStyle, 'style:list-level-properties');
    const alignment = kid(props, 'style:list-level-label-alignment');
    if (alignment)
      return {
        indentLeft: length(attr(alignment, 'fo:margin-left')) ?? 18 * (level + 1),
        firstLine: length(attr(alignment, 'fo:text-indent')) ?? -18,
      };
    const before = length(attr(props, 'text:space-before'));
    const label = length(attr(props, 'text:min-label-width'));
    if (before !== undefined || label !== undefined)
      return { indentLeft: (before ?? 0) + (label ?? 18), firstLine: -(label ?? 18) };
    return { indentLeft: 18 * (level + 1), firstLine: -18 };
  }

  /** Properties of a table cell style: fill, borders, padding, vertical alignment. */
  cellFormat(
    styleName: string | undefined,
  ): Pick<TableCell, 'shading' | 'borders' | 'verticalAlign' | 'padding'> & { wrap?: boolean; chain: XmlElement[] } {
    const chain = this.styles.chain('table-cell', styleName);
    // Writer and Calc keep these in table-cell properties; Impress keeps the fill and padding in
    // graphic properties and the borders in paragraph properties.
    const p = (name: string, ...sources: string[]) => {
      for (const source of ['style:table-cell-properties', ...sources]) {
        const value = this.styles.prop(chain, source, name);
        if (value !== undefined) return value;
      }
      return undefined;
    };
    const graphic = ['loext:graphic-properties', 'style:graphic-properties'];
    const border = (side: string) =>
      odfBorder(p(`fo:border-${side}`, 'style:paragraph-properties') ?? p('fo:border', 'style:paragraph-properties'));
    const pad = (side: string) => length(p(`fo:padding-${side}`, ...graphic) ?? p('fo:padding', ...graphic));
    const valign = p('style:vertical-align') ?? p('draw:textarea-vertical-align', ...graphic);
    const fill = p('draw:fill', ...graphic);
    return {
      chain,
      shading:
        odfColor(p('fo:background-color')) ??
        (fill === 'solid' ? odfColor(p('draw:fill-color', ...graphic)) : undefined),
      borders: { top: border('top'), right: border('right'), bottom: border('bottom'), left: border('left') },
      verticalAlign:
        valign === 'middle'
          ? 'middle'
          : valign === 'bottom'
            ? 'bottom'
            : valign === 'top'
              ? 'top'
              : (this.options.cellAlign ?? 'top'),
      padding: { top: pad('top') ?? 2, right: pad('right') ?? 2, bottom: pad('bottom') ?? 2, left: pad('left') ?? 2 },
      wrap: p('fo:wrap-option') === 'wrap' ? true : undefined,
    };
  }

  /** A Writer/Impress table: columns with widths, header rows, cells with spans; covered cells skipped. */
  async table(tbl: XmlElement): Promise<Table> {
    const columnWidths: number[] = [];
    const collectColumns = (container: XmlElement) => {
      for (const el of kids(container)) {
        if (el.nodeName === 'table:table-column') {
          const style = this.styles.style('table-column', attr(el, 'table:style-name'));
          const width = length(attr(kid(style, 'style:table-column-properties'), 'style:column-width')) ?? 0;
          for (let i = 0; i < repeat(el, 'table:number-columns-repeated') && columnWidths.length < MAX_REPEAT; i++)
            columnWidths.push(width);
        } else if (
          ['table:table-columns', 'table:table-header-columns', 'table:table-column-group'].includes(el.nodeName)
        )
          collectColumns(el);
      }
    };
    collectColumns(tbl);
    const tableStyle = this.styles.style('table', attr(tbl, 'table:style-name'));
    const tableProps = kid(tableStyle, 'style:table-properties');
    const tableWidth = length(attr(tableProps, 'style:width')) ?? this.options.textWidth;

    const rows: TableRow[] = [];
    const collectRows = async (container: XmlElement, header: boolean) => {
      for (const el of kids(container)) {
        if (el.nodeName === 'table:table-row') {
          const row = await this.row(el, header);
          for (let i = 0; i < repeat(el, 'table:number-rows-repeated') && rows.length < MAX_REPEAT * 10; i++)
            rows.push(i === 0 ? row : { ...row, cells: row.cells.map((c) => ({ ...c })) });
        } else if (el.nodeName === 'table:table-header-rows') await collectRows(el, true);
        else if (el.nodeName === 'table:table-rows' || el.nodeName === 'table:table-row-group')
          await collectRows(el, header);
      }
    };
    await collectRows(tbl, false);
    const columns = Math.max(
      columnWidths.length,
      ...rows.map((row) => row.cells.reduce((max, c) => Math.max(max, c.column + c.colSpan), 0)),
    );
    const known = columnWidths.filter((w) => w > 0);
    const fallback =
      known.length === columnWidths.length && columns === columnWidths.length
        ? 0
        : Math.max(18, (tableWidth - known.reduce((a, b) => a + b, 0)) / Math.max(1, columns - known.length));
    const widths = Array.from({ length: columns }, (_, i) => columnWidths[i] || fallback || 72);
    const align = attr(tableProps, 'table:align');
    return {
      kind: 'table',
      columnWidths: widths,
      rows,
      indentLeft:
        align === 'margins' || align === 'left' || !align ? (length(attr(tableProps, 'fo:margin-left')) ?? 0) : 0,
      align: align === 'center' ? 'center' : align === 'right' ? 'right' : 'left',
    };
  }

  private async row(tr: XmlElement, header: boolean): Promise<TableRow> {
    const rowStyle = this.styles.style('table-row', attr(tr, 'table:style-name'));
    const rowProps = kid(rowStyle, 'style:table-row-properties');
    const row: TableRow = {
      cells: [],
      minHeight: length(attr(rowProps, 'style:min-row-height')) ?? length(attr(rowProps, 'style:row-height')) ?? 0,
      header: header || undefined,
    };
    let column = 0;
    for (const tc of kids(tr)) {
      if (tc.nodeName === 'table:covered-table-cell') {
        column += repeat(tc, 'table:number-columns-repeated');
        continue;
      }
      if (tc.nodeName !== 'table:table-cell') continue;
      const format = this.cellFormat(attr(tc, 'table:style-name'));
      const blocks = (await this.blocks(tc)).filter((b) => b.kind !== 'pageBreak');
      for (let i = 0; i < Math.min(MAX_REPEAT, repeat(tc, 'table:number-columns-repeated')); i++) {
        const colSpan = repeat(tc, 'table:number-columns-spanned');
        row.cells.push({
          column,
          colSpan,
          rowSpan: repeat(tc, 'table:number-rows-spanned'),
          blocks,
          shading: format.shading,
          borders: format.borders,
          verticalAlign: format.verticalAlign,
          padding: format.padding,
        });
        column += 1; // the columns it spans are table:covered-table-cell elements, which advance the column
      }
    }
    return row;
  }
}

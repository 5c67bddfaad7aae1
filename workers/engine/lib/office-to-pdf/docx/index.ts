/**
 * Reads a .docx (WordprocessingML) into sections of the layout model: styles with inheritance
 * (document defaults → style chain → direct formatting), theme fonts, numbered and bulleted lists,
 * tables with spans, merges, shading and borders, inline images, charts and SmartArt, page and line breaks, headers and
 * footers with PAGE / NUMPAGES fields, and each section's page size and margins.
 */
import JSZip from 'jszip';
import { rgb } from 'pdf-lib';
import type { Block, Border, FloatingDrawing, Inline, PageSetup, Paragraph, Rgb, RunStyle, Section, TabStop, TableCell, TableRow } from '../model.ts';
import { paragraph as makeParagraph, pictureDrawing } from '../model.ts';
import { attr, find, hexColor, imageMime, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from '../xml.ts';
import { chartReader, smartArtReader } from '../graphics.ts';
import { colorResolver, localName, part, readDrawingTheme, shapesInline } from '../shapes.ts';
import { measureBlocks } from '../flow.ts';

const TWIP = 1 / 20;
const EMU = 1 / 12700;

interface RunProps {
  font?: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  color?: Rgb;
  highlight?: Rgb;
  baseline?: 'super' | 'sub';
  caps?: boolean;
  hidden?: boolean;
}

interface ParaProps {
  align?: Paragraph['align'];
  spaceBefore?: number;
  spaceAfter?: number;
  line?: number;
  lineRule?: 'auto' | 'exact' | 'atLeast';
  indLeft?: number;
  indRight?: number;
  firstLine?: number;
  numId?: string;
  ilvl?: number;
  pageBreakBefore?: boolean;
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  borders?: Paragraph['borders'];
  shading?: Rgb;
  outlineLevel?: number;
  tabStops?: TabStop[];
}

interface Style {
  basedOn?: string;
  pPr?: XmlElement;
  rPr?: XmlElement;
  tblPr?: XmlElement;
  /** A table style's cell properties (shading, borders) for every cell. */
  tcPr?: XmlElement;
  /** A table style's conditional formats (w:tblStylePr) by type: firstRow, band1Horz, nwCell… */
  conditional?: Map<string, XmlElement>;
}

/** Formatting a table style gives the text of one cell: run and paragraph properties, in order. */
interface CellTextStyle {
  rPr: XmlElement[];
  pPr: XmlElement[];
}

/**
 * Which of a table style's conditional formats apply to a cell, lowest priority first (Word's
 * order: whole table, column bands, row bands, first/last column, first/last row, corners).
 * `look` is the table's w:tblLook: which of them the table turns on.
 */
export function conditionalTypes(r: number, c: number, rows: number, columns: number, look: TableLook, rowBand = 1, colBand = 1): string[] {
  const first = look.firstRow && r === 0, last = look.lastRow && r === rows - 1 && rows > 1;
  const firstCol = look.firstColumn && c === 0, lastCol = look.lastColumn && c === columns - 1 && columns > 1;
  const types = ['wholeTable'];
  if (!look.noVBand && !firstCol && !lastCol) types.push(Math.floor((c - (look.firstColumn ? 1 : 0)) / colBand) % 2 === 0 ? 'band1Vert' : 'band2Vert');
  if (!look.noHBand && !first && !last) types.push(Math.floor((r - (look.firstRow ? 1 : 0)) / rowBand) % 2 === 0 ? 'band1Horz' : 'band2Horz');
  if (firstCol) types.push('firstCol');
  if (lastCol) types.push('lastCol');
  if (first) types.push('firstRow');
  if (last) types.push('lastRow');
  if (first && firstCol) types.push('nwCell');
  if (first && lastCol) types.push('neCell');
  if (last && firstCol) types.push('swCell');
  if (last && lastCol) types.push('seCell');
  return types;
}

export interface TableLook {
  firstRow: boolean;
  lastRow: boolean;
  firstColumn: boolean;
  lastColumn: boolean;
  noHBand: boolean;
  noVBand: boolean;
}

/** w:tblLook as attributes (Word 2010+) or as the older hexadecimal w:val. */
export function tableLook(element: XmlElement | undefined): TableLook {
  // Without the element, Word's default (header row, first column, row bands); with attributes
  // and no w:val, an attribute left out is off.
  const bits = parseInt(attr(element, 'w:val') ?? (element ? '0' : '04A0'), 16);
  const flag = (name: string, bit: number) => {
    const value = attr(element, `w:${name}`);
    return value !== undefined ? value === '1' || value === 'true' || value === 'on' : (bits & bit) !== 0;
  };
  return { firstRow: flag('firstRow', 0x20), lastRow: flag('lastRow', 0x40), firstColumn: flag('firstColumn', 0x80), lastColumn: flag('lastColumn', 0x100), noHBand: flag('noHBand', 0x200), noVBand: flag('noVBand', 0x400) };
}

const HIGHLIGHTS: Record<string, string> = {
  yellow: 'FFFF00', green: '00FF00', cyan: '00FFFF', magenta: 'FF00FF', blue: '0000FF', red: 'FF0000', darkBlue: '000080', darkCyan: '008080',
  darkGreen: '008000', darkMagenta: '800080', darkRed: '800000', darkYellow: '808000', darkGray: '808080', lightGray: 'C0C0C0', black: '000000',
};

function onOff(element: XmlElement | undefined): boolean | undefined {
  if (!element) return undefined;
  const value = attr(element, 'w:val');
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value);
}

/** A paragraph border side (w:pBdr/w:top…): w:sz in eighths of a point, w:color hex or auto. */
function paragraphBorder(element: XmlElement | undefined): Border | undefined {
  const value = attr(element, 'w:val');
  if (!element || !value || value === 'none' || value === 'nil') return undefined;
  return { width: Math.max(0.25, (num(element, 'w:sz') ?? 4) / 8) * (value === 'double' ? 2.5 : 1), color: hexColor(attr(element, 'w:color')) ?? [0, 0, 0] };
}

/** Bullet glyphs from Symbol/Wingdings private-use code points → Unicode. */
function bulletText(text: string): string {
  const map: Record<string, string> = { '●': '•', '○': '◦', '■': '▪', '◆': '•', '\uf0b7': '•', '\uf0a7': '▪', '\uf0d8': '➢', '\uf0fc': '✓', '\uf076': '❖', '§': '▪', o: '◦', '\uf06f': '◦', '\uf0a8': '□' };
  return map[text] ?? (text.charCodeAt(0) >= 0xf000 ? '•' : text);
}

function roman(n: number): string {
  const table: Array<[number, string]> = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let out = '';
  for (const [value, letters] of table) while (n >= value) { out += letters; n -= value; }
  return out;
}

function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter': return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
    case 'upperLetter': return String.fromCharCode(65 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
    case 'lowerRoman': return roman(n);
    case 'upperRoman': return roman(n).toUpperCase();
    case 'decimalZero': return n < 10 ? `0${n}` : String(n);
    default: return String(n);
  }
}

export interface DocxReadResult {
  sections: Section[];
  /** Things the renderer left out (e.g. "2 images in EMF format"), shown to the user. */
  notes: string[];
}

export async function readDocx(zip: JSZip): Promise<DocxReadResult> {
  const documentPath = 'word/document.xml';
  const documentXml = await zipText(zip, documentPath);
  if (!documentXml) throw new Error('word/document.xml is missing');
  const notes = new Set<string>();

  // Theme fonts.
  const themeFonts = { minor: 'Calibri', major: 'Calibri Light' };
  const themeXml = await zipText(zip, 'word/theme/theme1.xml');
  const drawingTheme = readDrawingTheme(themeXml ? parseXml(themeXml) : undefined);
  if (themeXml) {
    const theme = parseXml(themeXml);
    themeFonts.minor = attr(find(find(theme, 'a:minorFont'), 'a:latin'), 'typeface') ?? themeFonts.minor;
    themeFonts.major = attr(find(find(theme, 'a:majorFont'), 'a:latin'), 'typeface') ?? themeFonts.major;
  }

  // Styles.
  const styles = new Map<string, Style>();
  let defaultParagraphStyle: string | undefined;
  let defaultTableStyle: string | undefined;
  let defaultRPr: XmlElement | undefined;
  let defaultPPr: XmlElement | undefined;
  const stylesXml = await zipText(zip, 'word/styles.xml');
  if (stylesXml) {
    const root = parseXml(stylesXml);
    const docDefaults = kid(root, 'w:docDefaults');
    defaultRPr = kid(kid(docDefaults, 'w:rPrDefault'), 'w:rPr');
    defaultPPr = kid(kid(docDefaults, 'w:pPrDefault'), 'w:pPr');
    for (const style of kids(root, 'w:style')) {
      const id = attr(style, 'w:styleId');
      if (!id) continue;
      const conditional = new Map(kids(style, 'w:tblStylePr').map((el) => [attr(el, 'w:type') ?? '', el] as const));
      styles.set(id, { basedOn: attr(kid(style, 'w:basedOn'), 'w:val'), pPr: kid(style, 'w:pPr'), rPr: kid(style, 'w:rPr'), tblPr: kid(style, 'w:tblPr'), tcPr: kid(style, 'w:tcPr'), conditional });
      if (attr(style, 'w:default') === '1' && attr(style, 'w:type') === 'paragraph') defaultParagraphStyle = id;
      if (attr(style, 'w:default') === '1' && attr(style, 'w:type') === 'table') defaultTableStyle = id;
    }
  }
  const styleChain = (id: string | undefined): Style[] => {
    const chain: Style[] = [];
    const seen = new Set<string>();
    while (id && styles.has(id) && !seen.has(id)) {
      seen.add(id);
      const style = styles.get(id)!;
      chain.unshift(style);
      id = style.basedOn;
    }
    return chain;
  };

  const readRunProps = (rPr: XmlElement | undefined, into: RunProps): RunProps => {
    if (!rPr) return into;
    const fonts = kid(rPr, 'w:rFonts');
    if (fonts) {
      const theme = attr(fonts, 'w:asciiTheme') ?? attr(fonts, 'w:hAnsiTheme');
      const font = attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi') ?? (theme ? (theme.startsWith('major') ? themeFonts.major : themeFonts.minor) : undefined);
      if (font) into.font = font;
    }
    const size = num(kid(rPr, 'w:sz'), 'w:val');
    if (size !== undefined) into.size = size / 2;
    const flags: Array<[keyof RunProps, string]> = [['bold', 'w:b'], ['italic', 'w:i'], ['strike', 'w:strike'], ['caps', 'w:caps'], ['hidden', 'w:vanish']];
    for (const [key, tag] of flags) {
      const value = onOff(kid(rPr, tag));
      if (value !== undefined) (into as Record<string, unknown>)[key] = value;
    }
    const underline = kid(rPr, 'w:u');
    if (underline) into.underline = attr(underline, 'w:val') !== 'none';
    const color = hexColor(attr(kid(rPr, 'w:color'), 'w:val'));
    if (color) into.color = color;
    const highlight = attr(kid(rPr, 'w:highlight'), 'w:val');
    if (highlight) into.highlight = highlight === 'none' ? undefined : hexColor(HIGHLIGHTS[highlight]);
    const shade = hexColor(attr(kid(rPr, 'w:shd'), 'w:fill'));
    if (shade && !into.highlight) into.highlight = shade;
    const vertAlign = attr(kid(rPr, 'w:vertAlign'), 'w:val');
    if (vertAlign) into.baseline = vertAlign === 'superscript' ? 'super' : vertAlign === 'subscript' ? 'sub' : undefined;
    return into;
  };

  const readParaProps = (pPr: XmlElement | undefined, into: ParaProps): ParaProps => {
    if (!pPr) return into;
    // Tab stops add to (or, with "clear", remove from) the inherited ones.
    const tabs = kids(kid(pPr, 'w:tabs'), 'w:tab');
    if (tabs.length) {
      const stops = new Map((into.tabStops ?? []).map((stop) => [Math.round(stop.position * 20), stop]));
      for (const tab of tabs) {
        const value = attr(tab, 'w:val') ?? 'left';
        const position = num(tab, 'w:pos') ?? 0;
        if (value === 'clear') stops.delete(position);
        else if (value !== 'bar') {
          const leader = ({ dot: '.', hyphen: '-', underscore: '_', heavy: '_', middleDot: '·' } as Record<string, TabStop['leader']>)[attr(tab, 'w:leader') ?? ''];
          const align = value === 'right' || value === 'end' ? 'right' : value === 'center' ? 'center' : value === 'decimal' ? 'decimal' : 'left';
          stops.set(position, { position: position * TWIP, align, leader });
        }
      }
      into.tabStops = [...stops.values()].sort((a, b) => a.position - b.position);
    }
    const jc = attr(kid(pPr, 'w:jc'), 'w:val');
    if (jc) into.align = jc === 'center' ? 'center' : jc === 'right' || jc === 'end' ? 'right' : jc === 'both' || jc === 'distribute' ? 'justify' : 'left';
    const spacing = kid(pPr, 'w:spacing');
    if (spacing) {
      const before = num(spacing, 'w:before');
      const after = num(spacing, 'w:after');
      const line = num(spacing, 'w:line');
      if (before !== undefined && attr(spacing, 'w:beforeAutospacing') !== '1') into.spaceBefore = before * TWIP;
      if (after !== undefined && attr(spacing, 'w:afterAutospacing') !== '1') into.spaceAfter = after * TWIP;
      if (line !== undefined) {
        into.line = line;
        into.lineRule = (attr(spacing, 'w:lineRule') as ParaProps['lineRule']) ?? 'auto';
      }
    }
    const ind = kid(pPr, 'w:ind');
    if (ind) {
      const left = num(ind, 'w:left') ?? num(ind, 'w:start');
      const right = num(ind, 'w:right') ?? num(ind, 'w:end');
      const first = num(ind, 'w:firstLine');
      const hanging = num(ind, 'w:hanging');
      if (left !== undefined) into.indLeft = left * TWIP;
      if (right !== undefined) into.indRight = right * TWIP;
      if (first !== undefined) into.firstLine = first * TWIP;
      if (hanging !== undefined) into.firstLine = -hanging * TWIP;
    }
    const numPr = kid(pPr, 'w:numPr');
    if (numPr) {
      const numId = attr(kid(numPr, 'w:numId'), 'w:val');
      if (numId !== undefined) into.numId = numId;
      const ilvl = num(kid(numPr, 'w:ilvl'), 'w:val');
      if (ilvl !== undefined) into.ilvl = ilvl;
    }
    const pbb = onOff(kid(pPr, 'w:pageBreakBefore'));
    if (pbb !== undefined) into.pageBreakBefore = pbb;
    for (const name of ['keepNext', 'keepLines', 'widowControl'] as const) {
      const value = onOff(kid(pPr, `w:${name}`));
      if (value !== undefined) into[name] = value;
    }
    const shading = hexColor(attr(kid(pPr, 'w:shd'), 'w:fill'));
    if (shading) into.shading = shading;
    const pBdr = kid(pPr, 'w:pBdr');
    if (pBdr) {
      const side = (name: string) => paragraphBorder(kid(pBdr, `w:${name}`));
      const space = (name: string) => (num(kid(pBdr, `w:${name}`), 'w:space') ?? 0); // in points
      into.borders = {
        top: side('top'), bottom: side('bottom'), left: side('left') ?? side('start'), right: side('right') ?? side('end'),
        space: { top: space('top'), bottom: space('bottom'), left: space('left') || space('start'), right: space('right') || space('end') },
      };
    }
    const outline = num(kid(pPr, 'w:outlineLvl'), 'w:val');
    if (outline !== undefined) into.outlineLevel = outline;
    return into;
  };

  // Numbering definitions.
  const numbering = new Map<string, Map<number, { format: string; text: string; start: number; pPr?: XmlElement; rPr?: XmlElement }>>();
  const numberingXml = await zipText(zip, 'word/numbering.xml');
  if (numberingXml) {
    const root = parseXml(numberingXml);
    const abstracts = new Map<string, XmlElement>();
    for (const abstract of kids(root, 'w:abstractNum')) abstracts.set(attr(abstract, 'w:abstractNumId') ?? '', abstract);
    for (const numEl of kids(root, 'w:num')) {
      const abstract = abstracts.get(attr(kid(numEl, 'w:abstractNumId'), 'w:val') ?? '');
      if (!abstract) continue;
      const levels = new Map<number, { format: string; text: string; start: number; pPr?: XmlElement; rPr?: XmlElement }>();
      for (const lvl of kids(abstract, 'w:lvl')) {
        levels.set(num(lvl, 'w:ilvl') ?? 0, {
          format: attr(kid(lvl, 'w:numFmt'), 'w:val') ?? 'decimal',
          text: attr(kid(lvl, 'w:lvlText'), 'w:val') ?? '',
          start: num(kid(lvl, 'w:start'), 'w:val') ?? 1,
          pPr: kid(lvl, 'w:pPr'),
          rPr: kid(lvl, 'w:rPr'),
        });
      }
      numbering.set(attr(numEl, 'w:numId') ?? '', levels);
    }
  }
  const counters = new Map<string, number[]>();

  const rels = await readRels(zip, documentPath);
  const imageCache = new Map<string, Uint8Array>();

  // Footnotes and endnotes (word/footnotes.xml, word/endnotes.xml) by id; ids of separators are skipped.
  const settingsRoot = await zipText(zip, 'word/settings.xml').then((xml) => (xml ? parseXml(xml) : undefined));
  const notesPart = async (kind: 'footnote' | 'endnote') => {
    const target = [...rels.values()].find((r) => r.type.endsWith(`/${kind}s`))?.target;
    const xml = target ? await zipText(zip, target) : undefined;
    const byId = new Map<string, XmlElement>();
    if (!target || !xml) return { byId, rels };
    for (const note of kids(parseXml(xml), `w:${kind}`)) if (!attr(note, 'w:type')) byId.set(attr(note, 'w:id') ?? '', note);
    return { byId, rels: await readRels(zip, target) };
  };
  const footnoteNotes = await notesPart('footnote');
  const endnoteNotes = await notesPart('endnote');
  const noteFormat = (kind: 'footnote' | 'endnote') => attr(kid(kid(settingsRoot, `w:${kind}Pr`), 'w:numFmt'), 'w:val') ?? (kind === 'footnote' ? 'decimal' : 'lowerRoman');
  const noteCount = { footnote: 0, endnote: 0 };
  /** The number (mark) of the note being read, for its w:footnoteRef / w:endnoteRef. */
  let currentNoteMark = '';
  /** Endnotes in the order they are referenced: printed after the last section's text. */
  const endnoteBlocks: Block[] = [];
  const readChart = chartReader(zip, 'word/theme/theme1.xml');
  const readSmartArt = smartArtReader(zip, 'word/theme/theme1.xml', notes);

  // Word's own defaults when the document names no font or size: Times New Roman, 10 pt.
  const baseRun = readRunProps(defaultRPr, { size: 10, font: 'Times New Roman' });
  const basePara = readParaProps(defaultPPr, {});

  const styleRunProps = (styleId: string | undefined, into: RunProps) => {
    for (const style of styleChain(styleId)) readRunProps(style.rPr, into);
    return into;
  };

  const toStyle = (props: RunProps): RunStyle => ({
    font: props.font,
    size: props.size ?? 11,
    bold: props.bold,
    italic: props.italic,
    underline: props.underline,
    strike: props.strike,
    color: props.color,
    highlight: props.highlight,
    baseline: props.baseline,
  });

  async function imageInline(drawing: XmlElement, partRels: typeof rels): Promise<Inline | undefined> {
    const extent = find(drawing, 'wp:extent');
    const blip = find(drawing, 'a:blip');
    const id = attr(blip, 'r:embed');
    if (!extent || !id) return undefined;
    const rel = partRels.get(id);
    if (!rel) return undefined;
    const mime = imageMime(rel.target);
    if (!mime) {
      notes.add(`images in ${rel.target.split('.').pop()?.toUpperCase()} format were left out`);
      return undefined;
    }
    if (mime === 'image/x-emf' || mime === 'image/x-wmf') notes.add(`images in ${rel.target.split('.').pop()?.toUpperCase()} format were drawn as empty frames`);
    let data = imageCache.get(rel.target);
    if (!data) {
      const file = zip.file(rel.target);
      if (!file) return undefined;
      data = await file.async('uint8array');
      imageCache.set(rel.target, data);
    }
    return { kind: 'image', bytes: data, mime, width: (num(extent, 'cx') ?? 0) * EMU, height: (num(extent, 'cy') ?? 0) * EMU };
  }

  /**
   * Word shapes and text boxes (wps:wsp, groups wpg:wgp) as a drawing of the extent's size in the
   * flow, through the shared shape routine; a text box's paragraphs are read as body text and laid
   * out inside its insets.
   */
  async function shapesDrawing(drawing: XmlElement, partRels: typeof rels, width: number, height: number): Promise<Inline | undefined> {
    const elements = kids(find(drawing, 'a:graphicData')).filter((el) => ['wsp', 'wgp'].includes(localName(el)));
    if (!elements.length || width <= 0 || height <= 0) return undefined;
    return shapesInline(elements, { x: 0, y: 0, width, height }, {
      color: colorResolver(drawingTheme),
      theme: drawingTheme,
      textColor: drawingTheme.colors.dk1 ?? [0, 0, 0],
      defaultSize: 11,
      notes,
      textBox: async (sp, box, ctx) => {
        const blocks: Block[] = [];
        await readBlocks(find(sp, 'w:txbxContent')!, partRels, (block) => { if (block.kind !== 'pageBreak') blocks.push(block); });
        const bodyPr = part(sp, 'bodyPr');
        const inset = (name: string, fallback: number) => (num(bodyPr, name) ?? fallback) * EMU;
        const [left, right, top, bottom] = [inset('lIns', 91440), inset('rIns', 91440), inset('tIns', 45720), inset('bIns', 45720)];
        const measured = await measureBlocks(blocks, Math.max(4, box.width - left - right), ctx);
        const free = box.height - top - bottom - measured.height;
        const anchor = attr(bodyPr, 'anchor');
        const offset = Math.max(0, anchor === 'ctr' ? free / 2 : anchor === 'b' ? free : 0);
        return (page, x, y, dctx) => measured.draw(page, x + box.x + left, y - box.y - top - offset, dctx);
      },
    });
  }

  /**
   * Where an anchored drawing floats (wp:anchor with wp:positionH / wp:positionV, or wp:simplePos)
   * and how text makes room for it; undefined for drawings that sit in the line.
   */
  function floatingPlace(drawing: XmlElement): Omit<FloatingDrawing, 'drawing'> | undefined {
    const anchor = kid(drawing, 'wp:anchor');
    if (!anchor) return undefined;
    const behind = attr(anchor, 'behindDoc') === '1';
    // How text makes room (wrap square, tight and through are all laid out as square here).
    const distance = Math.max(...['distL', 'distR', 'distT', 'distB'].map((name) => num(anchor, name) ?? 0)) * EMU;
    const wrap: FloatingDrawing['wrap'] = kid(anchor, 'wp:wrapNone') || behind ? { kind: 'none', distance: 0 }
      : kid(anchor, 'wp:wrapTopAndBottom') ? { kind: 'topAndBottom', distance }
      : kid(anchor, 'wp:wrapSquare') || kid(anchor, 'wp:wrapTight') || kid(anchor, 'wp:wrapThrough') ? { kind: 'square', distance }
      : undefined;
    if (!wrap) return undefined;
    if (attr(anchor, 'simplePos') === '1') {
      const pos = kid(anchor, 'wp:simplePos');
      return { behind, wrap, horizontal: { from: 'page', offset: (num(pos, 'x') ?? 0) * EMU }, vertical: { from: 'page', offset: (num(pos, 'y') ?? 0) * EMU } };
    }
    const position = (name: string) => {
      const el = kid(anchor, name);
      return { from: attr(el, 'relativeFrom') ?? '', offset: Number(kid(el, 'wp:posOffset')?.textContent ?? 0) * EMU || 0, align: kid(el, 'wp:align')?.textContent?.trim() };
    };
    const h = position('wp:positionH');
    const v = position('wp:positionV');
    return {
      behind,
      wrap,
      horizontal: {
        from: h.from === 'page' || h.from === 'leftMargin' || h.from === 'rightMargin' ? h.from : 'margin', // column, character, inside/outside margin: the text column
        offset: h.offset,
        align: h.align === 'center' ? 'center' : h.align === 'right' || h.align === 'outside' ? 'right' : h.align ? 'left' : undefined,
      },
      vertical: {
        from: v.from === 'page' || v.from === 'margin' || v.from === 'topMargin' || v.from === 'bottomMargin' ? v.from : 'paragraph', // paragraph, line
        offset: v.offset,
        align: v.align === 'center' ? 'center' : v.align === 'bottom' || v.align === 'outside' ? 'bottom' : v.align ? 'top' : undefined,
      },
    };
  }

  type Piece = Inline | { kind: 'pageBreakMark' };
  /** The table style's formatting for the text of the cell being read (undefined outside tables). */
  let cellTextStyle: CellTextStyle | undefined;

  async function readParagraph(p: XmlElement, partRels: typeof rels): Promise<Block[]> {
    const floats: FloatingDrawing[] = [];
    const footnotes: Block[][] = [];
    const anchors: string[] = [];
    const pPr = kid(p, 'w:pPr');
    const styleId = attr(kid(pPr, 'w:pStyle'), 'w:val') ?? defaultParagraphStyle;
    const props: ParaProps = { ...basePara };
    // A table style's text formatting sits between the defaults and the paragraph's style; its run
    // formatting (a bold, white header row) also wins over the default paragraph style ("Normal").
    const table = cellTextStyle;
    const overNormal = !attr(kid(pPr, 'w:pStyle'), 'w:val') || styleId === defaultParagraphStyle;
    if (table) for (const el of table.pPr) readParaProps(el, props);
    for (const style of styleChain(styleId)) readParaProps(style.pPr, props);
    readParaProps(pPr, props);
    // Headings by style name when the style does not carry an outline level itself.
    if (props.outlineLevel === undefined && styleId) {
      const heading = /^(?:heading|berschrift|titre)\s*(\d)$/i.exec(styleId);
      if (heading) props.outlineLevel = Number(heading[1]) - 1;
      else if (/^title$/i.test(styleId)) props.outlineLevel = 0;
    }
    const paraRun: RunProps = { ...baseRun };
    if (table && !overNormal) for (const el of table.rPr) readRunProps(el, paraRun);
    styleRunProps(styleId, paraRun);
    if (table && overNormal) for (const el of table.rPr) readRunProps(el, paraRun);

    // List marker.
    let marker: Paragraph['marker'];
    const level = props.numId && props.numId !== '0' ? numbering.get(props.numId)?.get(props.ilvl ?? 0) : undefined;
    if (level && props.numId) {
      readParaProps(level.pPr, props);
      readParaProps(pPr, props); // direct indents win over the list level's
      const counts = counters.get(props.numId) ?? [];
      const ilvl = props.ilvl ?? 0;
      counts[ilvl] = (counts[ilvl] ?? numbering.get(props.numId)!.get(ilvl)!.start - 1) + 1;
      counts.length = ilvl + 1;
      counters.set(props.numId, counts);
      const levels = numbering.get(props.numId)!;
      let text: string;
      if (level.format === 'bullet') text = bulletText(level.text);
      else if (level.format === 'none') text = '';
      else text = level.text.replace(/%(\d)/g, (_, d: string) => formatNumber(counts[Number(d) - 1] ?? levels.get(Number(d) - 1)?.start ?? 1, levels.get(Number(d) - 1)?.format ?? 'decimal'));
      if (text) marker = { text, style: toStyle(readRunProps(level.rPr, { ...paraRun, underline: false })) };
    }

    const pieces: Piece[] = [];
    let fieldDepth = 0;
    let fieldInstr = '';
    let fieldShowsResult = true;
    /** The web address of the hyperlink (w:hyperlink or a HYPERLINK field) being read. */
    let link: string | undefined;
    let fieldLink = false;

    const readRuns = async (container: XmlElement) => {
      for (const child of kids(container)) {
        switch (child.nodeName) {
          case 'w:r': await readRun(child); break;
          case 'w:hyperlink': {
            const rel = partRels.get(attr(child, 'r:id') ?? '');
            const outer = link;
            const bookmark = attr(child, 'w:anchor');
            if (rel?.external) link = rel.target + (bookmark ? `#${bookmark}` : '');
            else if (bookmark) link = `#${bookmark}`; // a place in the document (a table of contents entry)
            await readRuns(child);
            link = outer;
            break;
          }
          case 'w:ins': case 'w:smartTag': case 'w:customXml': case 'w:dir': case 'w:bdo':
            await readRuns(child); break;
          case 'w:sdt': await readRuns(kid(child, 'w:sdtContent') ?? child); break;
          case 'w:fldSimple': {
            const instr = (attr(child, 'w:instr') ?? '').trim().split(/\s+/)[0]?.toUpperCase();
            if (instr === 'PAGE' || instr === 'NUMPAGES') {
              const r = find(child, 'w:r');
              pieces.push({ kind: 'field', field: instr, style: toStyle(readRunProps(kid(r, 'w:rPr'), styleRunProps(attr(kid(kid(r, 'w:rPr'), 'w:rStyle'), 'w:val'), { ...paraRun }))) });
            } else await readRuns(child);
            break;
          }
          case 'w:bookmarkStart': {
            const name = attr(child, 'w:name');
            if (name && name !== '_GoBack') anchors.push(name);
            break;
          }
          default: break; // bookmark ends, proofing marks, deletions (w:del), comments
        }
      }
    };

    const readDrawing = async (drawing: XmlElement) => {
      const extent = find(drawing, 'wp:extent');
      const [width, height] = [(num(extent, 'cx') ?? 0) * EMU, (num(extent, 'cy') ?? 0) * EMU];
      const image = find(drawing, 'c:chart')
        ? await readChart(drawing, partRels, width, height)
        : find(drawing, 'dgm:relIds')
          ? await readSmartArt(drawing, partRels, width, height)
          : find(drawing, 'wps:wsp') || find(drawing, 'wpg:wgp')
            ? await shapesDrawing(drawing, partRels, width, height)
            : await imageInline(drawing, partRels);
      if (!image) {
        if (find(drawing, 'dgm:relIds')) notes.add('SmartArt diagrams without a pre-rendered drawing were left out');
        return;
      }
      // In front of or behind the text: it takes no room in the flow and is placed where it is anchored.
      const place = floatingPlace(drawing);
      if (place && (image.kind === 'drawing' || image.kind === 'image')) floats.push({ ...place, drawing: image.kind === 'drawing' ? image : pictureDrawing(image) });
      else pieces.push(image);
    };

    /**
     * Legacy VML (w:pict, from older Word files): pictures (v:imagedata) at the shape's size, and
     * horizontal rules (o:hr); other VML shapes are left out with a note.
     */
    const readVml = async (pict: XmlElement) => {
      const shape = kids(pict).find((el) => ['v:shape', 'v:rect', 'v:image'].includes(el.nodeName));
      const css = Object.fromEntries((attr(shape, 'style') ?? '').split(';').map((d) => d.split(':').map((v) => v.trim())).filter((d) => d.length === 2));
      const length = (value: string | undefined) => {
        const match = /^(-?[\d.]+)(pt|in|px|cm|mm)?$/.exec(value ?? '');
        return match ? Number(match[1]) * ({ pt: 1, in: 72, px: 0.75, cm: 72 / 2.54, mm: 72 / 25.4 } as Record<string, number>)[match[2] ?? 'px'] : undefined;
      };
      const imageId = attr(find(pict, 'v:imagedata'), 'r:id');
      const rel = imageId ? partRels.get(imageId) : undefined;
      const mime = rel ? imageMime(rel.target) : undefined;
      const width = length(css.width), height = length(css.height);
      if (rel && mime && width && height) {
        const file = zip.file(rel.target);
        if (file) {
          pieces.push({ kind: 'image', bytes: await file.async('uint8array'), mime, width, height });
          return;
        }
      }
      if (attr(shape, 'o:hr') === 't' || attr(shape, 'o:hr') === 'true') {
        // A horizontal rule across the text column (its height, at least half a point; grey unless
        // filled). The column's width is not known here: the rule runs to the same distance from the
        // page's right edge as it starts from its left (Word's margins are usually even).
        const thickness = Math.max(0.5, height ?? 1.5);
        const color = hexColor(attr(shape, 'fillcolor')?.replace(/^#/, '')) ?? [0.63, 0.63, 0.63];
        pieces.push({ kind: 'drawing', width: 0, height: thickness + 2, prepare: async () => (page, x, bottom) => page.drawRectangle({ x, y: bottom + 1, width: Math.max(0, page.getWidth() - 2 * x), height: thickness, color: rgb(...color) }) });
        return;
      }
      notes.add('legacy VML drawings were left out');
    };

    const readRun = async (r: XmlElement) => {
      const rPr = kid(r, 'w:rPr');
      const props = readRunProps(rPr, styleRunProps(attr(kid(rPr, 'w:rStyle'), 'w:val'), { ...paraRun }));
      if (props.hidden) return;
      const style: RunStyle = { ...toStyle(props), link };
      for (const child of kids(r)) {
        switch (child.nodeName) {
          case 'w:fldChar': {
            const type = attr(child, 'w:fldCharType');
            if (type === 'begin') { fieldDepth++; fieldInstr = ''; fieldShowsResult = true; }
            else if (type === 'separate') {
              const instr = fieldInstr.trim().split(/\s+/)[0]?.toUpperCase();
              if (fieldDepth === 1 && (instr === 'PAGE' || instr === 'NUMPAGES')) { pieces.push({ kind: 'field', field: instr, style }); fieldShowsResult = false; }
              // HYPERLINK "address": the field's result is the link's text.
              const address = instr === 'HYPERLINK' ? (/\\l\s+"([^"]+)"/.exec(fieldInstr) ? `#${/\\l\s+"([^"]+)"/.exec(fieldInstr)![1]}` : /HYPERLINK\s+"([^"]+)"/i.exec(fieldInstr)?.[1]) : undefined;
              if (fieldDepth === 1 && address && !link) { link = address; fieldLink = true; }
            } else if (type === 'end') {
              fieldDepth = Math.max(0, fieldDepth - 1);
              fieldShowsResult = true;
              if (fieldDepth === 0 && fieldLink) { link = undefined; fieldLink = false; }
            }
            break;
          }
          case 'w:instrText': fieldInstr += child.textContent ?? ''; break;
          default:
            if (fieldDepth > 0 && !fieldShowsResult) break;
            if (fieldDepth > 0 && child.nodeName === 'w:t' && fieldInstr && !/\S/.test(child.textContent ?? '')) break;
            switch (child.nodeName) {
              case 'w:t': {
                const text = child.textContent ?? '';
                if (text) pieces.push({ kind: 'text', text: props.caps ? text.toUpperCase() : text, style });
                break;
              }
              case 'w:tab': pieces.push({ kind: 'tab', style }); break;
              case 'w:br': case 'w:cr':
                if (attr(child, 'w:type') === 'page') pieces.push({ kind: 'pageBreakMark' });
                else pieces.push({ kind: 'break', style });
                break;
              case 'w:noBreakHyphen': pieces.push({ kind: 'text', text: '‑', style }); break;
              case 'w:sym': {
                const code = parseInt(attr(child, 'w:char') ?? '', 16);
                if (Number.isFinite(code)) pieces.push({ kind: 'text', text: bulletText(String.fromCharCode(code)), style });
                break;
              }
              case 'w:footnoteReference': case 'w:endnoteReference': {
                // The note's number as a superscript mark here; its text at the page's foot (or after the document).
                const kind = child.nodeName === 'w:footnoteReference' ? 'footnote' : 'endnote';
                const note = (kind === 'footnote' ? footnoteNotes : endnoteNotes).byId.get(attr(child, 'w:id') ?? '');
                if (!note) break;
                const mark = formatNumber(++noteCount[kind], noteFormat(kind));
                if (!onOff(kid(child, 'w:customMarkFollows'))) pieces.push({ kind: 'text', text: mark, style: { ...style, baseline: 'super' } });
                const outer = currentNoteMark;
                currentNoteMark = mark;
                const blocks: Block[] = [];
                await readBlocks(note, (kind === 'footnote' ? footnoteNotes : endnoteNotes).rels, (block) => { if (block.kind !== 'pageBreak') blocks.push(block); });
                currentNoteMark = outer;
                if (kind === 'footnote') footnotes.push(blocks);
                else endnoteBlocks.push(...blocks);
                break;
              }
              case 'w:footnoteRef': case 'w:endnoteRef':
                if (currentNoteMark) pieces.push({ kind: 'text', text: currentNoteMark, style: { ...style, baseline: 'super' } });
                break;
              case 'w:drawing': await readDrawing(child); break;
              case 'mc:AlternateContent': {
                // Word shapes and text boxes (wps, wpg) come with a VML fallback: the DrawingML choice is drawn.
                const drawing = kids(child, 'mc:Choice').map((choice) => kid(choice, 'w:drawing')).find(Boolean);
                if (drawing) await readDrawing(drawing);
                else if (find(child, 'w:pict')) await readVml(find(child, 'w:pict')!);
                break;
              }
              case 'w:pict': await readVml(child); break;
              default: break;
            }
        }
      }
    };
    await readRuns(p);

    const spacing = (props.lineRule ?? 'auto') === 'auto'
      ? { rule: 'auto' as const, value: (props.line ?? 240) / 240 }
      : { rule: props.lineRule as 'exact' | 'atLeast', value: (props.line ?? 240) * TWIP };
    const base = {
      align: props.align ?? 'left',
      spaceBefore: props.spaceBefore ?? 0,
      spaceAfter: props.spaceAfter ?? 0,
      lineSpacing: spacing,
      indentLeft: props.indLeft ?? 0,
      indentRight: props.indRight ?? 0,
      firstLine: props.firstLine ?? 0,
      shading: props.shading,
      outlineLevel: props.outlineLevel,
      tabStops: props.tabStops,
      borders: props.borders && (props.borders.top || props.borders.bottom || props.borders.left || props.borders.right) ? props.borders : undefined,
      keepNext: props.keepNext,
      keepLines: props.keepLines,
      widowControl: props.widowControl,
    };
    // A page break inside the paragraph splits it in two around a page break.
    const blocks: Block[] = [];
    let current: Inline[] = [];
    let first = true;
    const flush = (last: boolean) => {
      if (current.length || last || first) {
        blocks.push(makeParagraph(current.length ? current : [{ kind: 'text', text: '', style: toStyle(paraRun) }], {
          ...base,
          marker: first ? marker : undefined,
          pageBreakBefore: first ? props.pageBreakBefore : false,
          floats: first && floats.length ? floats : undefined,
          footnotes: first && footnotes.length ? footnotes : undefined,
          anchors: first && anchors.length ? anchors : undefined,
        }));
      }
      current = [];
      first = false;
    };
    for (const piece of pieces) {
      if (piece.kind === 'pageBreakMark') {
        if (current.length) flush(false);
        blocks.push({ kind: 'pageBreak' });
      } else current.push(piece);
    }
    if (current.length || blocks.length === 0 || blocks[blocks.length - 1].kind === 'pageBreak') flush(true);
    return blocks;
  }

  const borderOf = (element: XmlElement | undefined): Border | undefined => {
    if (!element) return undefined;
    const value = attr(element, 'w:val');
    if (!value || value === 'none' || value === 'nil') return undefined;
    return { width: Math.max(0.25, (num(element, 'w:sz') ?? 4) / 8), color: hexColor(attr(element, 'w:color')) ?? [0, 0, 0] };
  };

  async function readTable(tbl: XmlElement, partRels: typeof rels): Promise<Block> {
    const tblPr = kid(tbl, 'w:tblPr');
    const tableStyle = attr(kid(tblPr, 'w:tblStyle'), 'w:val') ?? defaultTableStyle;
    const chain = styleChain(tableStyle);
    const look = tableLook(kid(tblPr, 'w:tblLook'));
    const styleValue = (name: string) => chain.reduce<number | undefined>((v, s) => num(kid(s.tblPr, name), 'w:val') ?? v, undefined);
    const rowBand = Math.max(1, styleValue('w:tblStyleRowBandSize') ?? 1);
    const colBand = Math.max(1, styleValue('w:tblStyleColBandSize') ?? 1);
    /** The style's own formatting plus its conditional formats for one cell, lowest priority first. */
    const styleParts = (r: number, c: number, rowCount: number, columnCount: number) => {
      const types = conditionalTypes(r, c, rowCount, columnCount, look, rowBand, colBand);
      // (The style's own paragraph spacing is left to the paragraph styles, as LibreOffice does: Table
      // Grid's "no space after" would otherwise shorten every table of a document in Normal's spacing.)
      const parts: Array<{ tcPr?: XmlElement; rPr?: XmlElement; pPr?: XmlElement; tblPr?: XmlElement }> = chain.map((st) => ({ tcPr: st.tcPr, rPr: st.rPr }));
      for (const type of types) for (const st of chain) {
        const el = st.conditional?.get(type);
        if (el) parts.push({ tcPr: kid(el, 'w:tcPr'), rPr: kid(el, 'w:rPr'), pPr: kid(el, 'w:pPr'), tblPr: kid(el, 'w:tblPr') });
      }
      return parts;
    };
    // Borders: table style chain, then direct.
    const bordersEl: Record<string, XmlElement | undefined> = {};
    for (const source of [...chain.map((s) => s.tblPr), tblPr]) {
      const borders = kid(source, 'w:tblBorders');
      for (const side of ['top', 'left', 'bottom', 'right', 'insideH', 'insideV', 'start', 'end']) {
        const el = kid(borders, `w:${side}`);
        if (el) bordersEl[side === 'start' ? 'left' : side === 'end' ? 'right' : side] = el;
      }
    }
    const tableBorders = Object.fromEntries(Object.entries(bordersEl).map(([k, v]) => [k, borderOf(v)])) as Record<string, Border | undefined>;
    const cellMargin = kid(tblPr, 'w:tblCellMar') ?? [...chain].reverse().map((s) => kid(s.tblPr, 'w:tblCellMar')).find(Boolean);
    const padLeft = (num(kid(cellMargin, 'w:left') ?? kid(cellMargin, 'w:start'), 'w:w') ?? 108) * TWIP;
    const padRight = (num(kid(cellMargin, 'w:right') ?? kid(cellMargin, 'w:end'), 'w:w') ?? 108) * TWIP;
    const gridCols = kids(kid(tbl, 'w:tblGrid'), 'w:gridCol').map((c) => (num(c, 'w:w') ?? 0) * TWIP);
    const jc = attr(kid(tblPr, 'w:jc'), 'w:val');

    const rowsEl = kids(tbl, 'w:tr');
    const rows: TableRow[] = [];
    const gridColumns = gridCols.length || Math.max(1, ...rowsEl.map((tr) => kids(tr, 'w:tc').length));
    const openMerges = new Map<number, TableCell & { column: number }>();
    for (let r = 0; r < rowsEl.length; r++) {
      const tr = rowsEl[r];
      const trPr = kid(tr, 'w:trPr');
      const row: TableRow = { cells: [], minHeight: (num(kid(trPr, 'w:trHeight'), 'w:val') ?? 0) * TWIP, header: onOff(kid(trPr, 'w:tblHeader')) ?? false };
      let column = num(kid(trPr, 'w:gridBefore'), 'w:val') ?? 0;
      const tcs = kids(tr, 'w:tc').concat(kids(tr, 'w:sdt').flatMap((sdt) => kids(kid(sdt, 'w:sdtContent'), 'w:tc')));
      for (const tc of tcs) {
        const tcPr = kid(tc, 'w:tcPr');
        const span = num(kid(tcPr, 'w:gridSpan'), 'w:val') ?? 1;
        const vMerge = kid(tcPr, 'w:vMerge');
        const mergeValue = vMerge ? attr(vMerge, 'w:val') ?? 'continue' : undefined;
        if (mergeValue === 'continue' && openMerges.has(column)) {
          openMerges.get(column)!.rowSpan++;
          column += span;
          continue;
        }
        const blocks: Block[] = [];
        const parts = styleParts(r, column, rowsEl.length, gridColumns);
        const outerCellStyle = cellTextStyle;
        cellTextStyle = { rPr: parts.flatMap((p) => (p.rPr ? [p.rPr] : [])), pPr: parts.flatMap((p) => (p.pPr ? [p.pPr] : [])) };
        try {
          for (const child of kids(tc)) {
            if (child.nodeName === 'w:p') blocks.push(...(await readParagraph(child, partRels)).filter((b) => b.kind !== 'pageBreak'));
            else if (child.nodeName === 'w:tbl') blocks.push(await readTable(child, partRels));
          }
        } finally {
          cellTextStyle = outerCellStyle;
        }
        // Borders and shading: the table's, then the style's for this cell, then the cell's own.
        const styleBorders: Record<string, Border | undefined> = {};
        let styleShading: Rgb | undefined;
        for (const part of parts) {
          const fill = hexColor(attr(kid(part.tcPr, 'w:shd'), 'w:fill'));
          if (fill) styleShading = fill;
          for (const side of ['top', 'bottom', 'left', 'right', 'start', 'end', 'insideH', 'insideV']) {
            const el = kid(kid(part.tcPr, 'w:tcBorders'), `w:${side}`) ?? kid(kid(part.tblPr, 'w:tblBorders'), `w:${side}`);
            if (el) styleBorders[side === 'start' ? 'left' : side === 'end' ? 'right' : side] = borderOf(el);
          }
        }
        const isFirstRow = r === 0, isLastRow = r === rowsEl.length - 1;
        const edge = (side: 'top' | 'bottom' | 'left' | 'right', outer: boolean, inside: 'insideH' | 'insideV') =>
          side in styleBorders ? styleBorders[side] : !outer && inside in styleBorders ? styleBorders[inside] : undefined;
        const own = kid(tcPr, 'w:tcBorders');
        const isLastColumn = column + span >= gridCols.length;
        const cell: TableCell & { column: number } = {
          column,
          colSpan: span,
          rowSpan: 1,
          blocks,
          shading: hexColor(attr(kid(tcPr, 'w:shd'), 'w:fill')) ?? styleShading,
          borders: {
            top: own && kid(own, 'w:top') ? borderOf(kid(own, 'w:top')) : (edge('top', isFirstRow, 'insideH') ?? (isFirstRow ? tableBorders.top : tableBorders.insideH)),
            bottom: own && kid(own, 'w:bottom') ? borderOf(kid(own, 'w:bottom')) : (edge('bottom', isLastRow, 'insideH') ?? (isLastRow ? tableBorders.bottom : tableBorders.insideH)),
            left: own && (kid(own, 'w:left') ?? kid(own, 'w:start')) ? borderOf(kid(own, 'w:left') ?? kid(own, 'w:start')) : (edge('left', column === 0, 'insideV') ?? (column === 0 ? tableBorders.left : tableBorders.insideV)),
            right: own && (kid(own, 'w:right') ?? kid(own, 'w:end')) ? borderOf(kid(own, 'w:right') ?? kid(own, 'w:end')) : (edge('right', isLastColumn, 'insideV') ?? (isLastColumn ? tableBorders.right : tableBorders.insideV)),
          },
          verticalAlign: ((v) => (v === 'center' ? 'middle' : v === 'bottom' ? 'bottom' : 'top'))(attr(kid(tcPr, 'w:vAlign'), 'w:val')),
          padding: { top: 0, bottom: 0, left: padLeft, right: padRight },
        };
        if (mergeValue === 'restart') openMerges.set(column, cell);
        else openMerges.delete(column);
        row.cells.push(cell);
        column += span;
      }
      // Footnotes referenced in the row's cells (and tables inside them) go to the page the row lands on.
      const notesOf = (blocks: Block[]): Block[][] => blocks.flatMap((b) => (b.kind === 'paragraph' ? b.footnotes ?? [] : b.kind === 'table' ? b.rows.flatMap((r) => r.footnotes ?? []) : []));
      const footnotes = row.cells.flatMap((cell) => notesOf(cell.blocks));
      if (footnotes.length) row.footnotes = footnotes;
      rows.push(row);
    }
    const columns = Math.max(gridCols.length, ...rows.map((row) => row.cells.reduce((max, c) => Math.max(max, c.column + c.colSpan), 0)));
    const widths = Array.from({ length: columns }, (_, i) => gridCols[i] || 72);
    return { kind: 'table', columnWidths: widths, rows, indentLeft: (num(kid(tblPr, 'w:tblInd'), 'w:w') ?? 0) * TWIP, align: jc === 'center' ? 'center' : jc === 'right' || jc === 'end' ? 'right' : 'left' };
  }

  /** Reads body-level content in order, handing each block to `emit`; `onSection` marks a section end. */
  async function readBlocks(container: XmlElement, partRels: typeof rels, emit: (block: Block) => void, onSection?: (sectPr: XmlElement) => void): Promise<void> {
    for (const child of kids(container)) {
      if (child.nodeName === 'w:p') {
        (await readParagraph(child, partRels)).forEach(emit);
        const sectPr = kid(kid(child, 'w:pPr'), 'w:sectPr');
        if (sectPr && onSection) onSection(sectPr);
      } else if (child.nodeName === 'w:tbl') emit(await readTable(child, partRels));
      else if (child.nodeName === 'w:sdt') await readBlocks(kid(child, 'w:sdtContent') ?? child, partRels, emit, onSection);
      else if (child.nodeName === 'w:customXml') await readBlocks(child, partRels, emit, onSection);
    }
  }

  async function readPart(rId: string | undefined): Promise<Block[] | undefined> {
    const rel = rId ? rels.get(rId) : undefined;
    const xml = rel ? await zipText(zip, rel.target) : undefined;
    if (!rel || !xml) return undefined;
    const blocks: Block[] = [];
    await readBlocks(parseXml(xml), await readRels(zip, rel.target), (block) => blocks.push(block));
    return blocks;
  }

  const settingsXml = await zipText(zip, 'word/settings.xml');
  const evenAndOddHeaders = (settingsXml && onOff(kid(parseXml(settingsXml), 'w:evenAndOddHeaders'))) ?? false;

  async function pageSetup(sectPr: XmlElement | undefined): Promise<Pick<Section, 'page' | 'header' | 'footer' | 'firstPage' | 'evenPages' | 'columns' | 'continuous'>> {
    const size = kid(sectPr, 'w:pgSz');
    const margin = kid(sectPr, 'w:pgMar');
    let width = (num(size, 'w:w') ?? 11906) * TWIP;
    let height = (num(size, 'w:h') ?? 16838) * TWIP;
    if (attr(size, 'w:orient') === 'landscape' && width < height) [width, height] = [height, width];
    const page: PageSetup = {
      width,
      height,
      margin: {
        top: Math.abs(num(margin, 'w:top') ?? 1440) * TWIP,
        right: (num(margin, 'w:right') ?? 1440) * TWIP,
        bottom: Math.abs(num(margin, 'w:bottom') ?? 1440) * TWIP,
        left: (num(margin, 'w:left') ?? 1440) * TWIP,
      },
      headerDistance: (num(margin, 'w:header') ?? 720) * TWIP,
      footerDistance: (num(margin, 'w:footer') ?? 720) * TWIP,
    };
    const partOf = (tag: string, type: 'default' | 'first' | 'even') => readPart(attr(kids(sectPr, tag).find((ref) => (attr(ref, 'w:type') ?? 'default') === type), 'r:id'));
    const variant = async (type: 'first' | 'even') => ({ header: await partOf('w:headerReference', type), footer: await partOf('w:footerReference', type) });
    const cols = kid(sectPr, 'w:cols');
    const columnCount = num(cols, 'w:num') ?? 1;
    return {
      page,
      columns: columnCount > 1 ? { count: columnCount, gap: (num(cols, 'w:space') ?? 720) * TWIP } : undefined,
      continuous: attr(kid(sectPr, 'w:type'), 'w:val') === 'continuous',
      header: await partOf('w:headerReference', 'default'),
      footer: await partOf('w:footerReference', 'default'),
      firstPage: onOff(kid(sectPr, 'w:titlePg')) ? await variant('first') : undefined,
      evenPages: evenAndOddHeaders ? await variant('even') : undefined,
    };
  }

  const body = find(parseXml(documentXml), 'w:body');
  if (!body) throw new Error('The document has no body');
  const sections: Section[] = [];
  let pending: Block[] = [];
  const sectionEnds: Array<{ blocks: Block[]; sectPr: XmlElement }> = [];
  await readBlocks(body, rels, (block) => pending.push(block), (sectPr) => {
    sectionEnds.push({ blocks: pending, sectPr });
    pending = [];
  });
  for (const end of sectionEnds) sections.push({ ...(await pageSetup(end.sectPr)), blocks: end.blocks });
  const last = await pageSetup(kid(body, 'w:sectPr'));
  let previousHeader = sections[sections.length - 1];
  if (endnoteBlocks.length) {
    // Word's endnote separator: a short rule above the notes.
    const rule: Inline = { kind: 'drawing', width: 144, height: 6, prepare: async () => (page, x, bottom) => page.drawLine({ start: { x, y: bottom + 3 }, end: { x: x + 144, y: bottom + 3 }, thickness: 0.5 }) };
    pending.push(makeParagraph([rule], { spaceBefore: 12 }), ...endnoteBlocks);
  }
  sections.push({ ...last, blocks: pending });
  // Sections without their own header/footer inherit the previous section's (as Word does).
  for (const section of sections) {
    if (previousHeader && section !== previousHeader) {
      section.header ??= previousHeader.header;
      section.footer ??= previousHeader.footer;
      if (section.firstPage) {
        section.firstPage.header ??= previousHeader.firstPage?.header;
        section.firstPage.footer ??= previousHeader.firstPage?.footer;
      }
      if (section.evenPages) {
        section.evenPages.header ??= previousHeader.evenPages?.header;
        section.evenPages.footer ??= previousHeader.evenPages?.footer;
      }
    }
    previousHeader = section;
  }
  return { sections: sections.filter((s, i) => s.blocks.length > 0 || i === sections.length - 1), notes: [...notes] };
}

/**
 * A compact RTF reader into the layout model: groups and control words; the font and colour
 * tables; character formatting (\b \i \ul \strike \fs \f \cf \highlight \super \sub); paragraph
 * formatting (\qc \qr \qj \li \ri \fi \sb \sa \sl \pagebb \outlinelevel); \par \line \tab \page;
 * \uN with \ucN skipping; \'hh in the document's or the font's code page; simple tables
 * (\trowd \cellx \cell \row, cell shading and borders); headers and footers; PNG and JPEG
 * pictures (\pict \pngblip \jpegblip). Unknown \* destinations are skipped, as the spec says.
 */
import type { Block, Border, Inline, Paragraph, PageSetup, Rgb, RunStyle, Section, TableCell, TableRow } from './model.ts';
import { paragraph as makeParagraph } from './model.ts';

const TWIP = 1 / 20;

/** \fcharset → code page, for \'hh bytes of text in that font. */
const CHARSET_CODEPAGE: Record<number, number> = { 0: 1252, 2: 42, 77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250 };
const CODEPAGE_LABEL: Record<number, string> = { 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 10000: 'macintosh', 874: 'windows-874' };

/** Destinations whose text is not document text (skipped with their whole group). */
const SKIP = new Set([
  'stylesheet', 'info', 'object', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'xmlnstbl', 'listtable', 'listoverridetable',
  'rsidtbl', 'generator', 'filetbl', 'revtbl', 'footnote', 'annotation', 'bkmkstart', 'bkmkend', 'nonshppict', 'pgdsctbl', 'mmathPr',
  'fftitle', 'ffdeftext', 'ffformat', 'ffhelptext', 'ffstattext', 'ffentrymcr', 'ffexitmcr', 'formfield', 'template', 'private', 'userprops', 'docvar',
  'pn', 'listpicture', 'wgrffmtfilter',
]);

interface CharProps {
  font?: number;
  size: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  color?: number;
  highlight?: number;
  baseline?: 'super' | 'sub';
  caps: boolean;
  hidden: boolean;
}

interface ParaProps {
  align: Paragraph['align'];
  left: number;
  right: number;
  first: number;
  before: number;
  after: number;
  line: number;
  lineMultiple: boolean;
  pageBreakBefore: boolean;
  outlineLevel?: number;
  inTable: boolean;
}

type Destination = 'text' | 'skip' | 'fonttbl' | 'colortbl' | 'pict' | 'header' | 'footer' | 'fldinst';

interface State {
  chars: CharProps;
  para: ParaProps;
  destination: Destination;
  /** \ucN: characters that stand in for each \uN (skipped after it). */
  uc: number;
  /** Inside a \field whose instruction is PAGE / NUMPAGES: its \fldrslt is replaced by the live field. */
  field?: 'PAGE' | 'NUMPAGES';
  /** The story a \fldinst group belongs to (the instruction's destination replaces it while read). */
  outer?: Destination;
}

const defaultChars = (): CharProps => ({ size: 12, bold: false, italic: false, underline: false, strike: false, caps: false, hidden: false });
const defaultPara = (): ParaProps => ({ align: 'left', left: 0, right: 0, first: 0, before: 0, after: 0, line: 0, lineMultiple: false, pageBreakBefore: false, inTable: false });

interface CellDef {
  right: number;
  shading?: number;
  borders: Set<'top' | 'left' | 'bottom' | 'right'>;
  verticalAlign: TableCell['verticalAlign'];
}

/** Collects one story (the body, a header or a footer). */
interface Story {
  blocks: Block[];
  inlines: Inline[];
  /** Paragraphs of the cell being read, the cells of the row, and the table being built. */
  cellBlocks: Block[];
  rowCells: Block[][];
  table?: { widths: number[]; rows: TableRow[]; signature: string; indent: number };
}

const newStory = (): Story => ({ blocks: [], inlines: [], cellBlocks: [], rowCells: [] });

export interface RtfReadResult {
  sections: Section[];
  notes: string[];
}

function decoderFor(codePage: number): TextDecoder {
  const label = CODEPAGE_LABEL[codePage] ?? `windows-${codePage}`;
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

export function readRtf(bytes: Uint8Array): RtfReadResult {
  // RTF is 7-bit text with escapes; reading it byte for byte keeps \bin data and stray 8-bit bytes intact.
  let source = '';
  for (let i = 0; i < bytes.length; i += 0x8000) source += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  if (!source.startsWith('{\\rtf')) throw new Error('it does not start with {\\rtf');

  const notes = new Set<string>();
  const fonts = new Map<number, { name: string; codePage?: number }>();
  const colors: Array<Rgb | undefined> = [];
  let documentCodePage = 1252;
  let defaultFont: number | undefined;
  const page: PageSetup = { width: 612, height: 792, margin: { top: 72, bottom: 72, left: 90, right: 90 }, headerDistance: 36, footerDistance: 36 };
  let landscape = false;
  let continuousSection = false;
  let sectionBreakPending = false;
  /** Called before the first content of a section: the section break becomes a page break. */
  const applySectionBreak = () => {
    if (!sectionBreakPending || state.destination !== 'text') return;
    sectionBreakPending = false;
    if (!continuousSection) body.blocks.push({ kind: 'pageBreak' });
  };

  let state: State = { chars: defaultChars(), para: defaultPara(), destination: 'text', uc: 1 };
  const stack: State[] = [];
  const body = newStory();
  let header: Story | undefined;
  let footer: Story | undefined;
  const storyFor = (destination: Destination): Story => (destination === 'header' ? (header ??= newStory()) : destination === 'footer' ? (footer ??= newStory()) : body);

  // Font table entry being read; colour being read; picture being read.
  let fontEntry: { id: number; name: string; codePage?: number } | undefined;
  let colorEntry: [number, number, number] = [0, 0, 0];
  let colorEntrySet = false;
  let picture: { format?: 'image/png' | 'image/jpeg' | 'other'; hex: string[]; binary?: Uint8Array; width?: number; height?: number; goalWidth?: number; goalHeight?: number; scaleX: number; scaleY: number } | undefined;

  // Row definition.
  let cellDefs: CellDef[] = [];
  let pendingBorder: 'top' | 'left' | 'bottom' | 'right' | undefined;
  let pendingShading: number | undefined;
  let pendingVAlign: TableCell['verticalAlign'] = 'top';
  let rowLeft = 0;
  let rowPadding = 5.4;

  let instruction = '';
  // \'hh bytes wait here so multi-byte code pages decode in one go.
  let pendingBytes: number[] = [];
  let skipChars = 0;

  const runStyle = (): RunStyle => {
    const c = state.chars;
    const font = fonts.get(c.font ?? defaultFont ?? -1)?.name;
    return { font, size: c.size, bold: c.bold || undefined, italic: c.italic || undefined, underline: c.underline || undefined, strike: c.strike || undefined, color: c.color ? colors[c.color] : undefined, highlight: c.highlight ? colors[c.highlight] : undefined, baseline: c.baseline };
  };

  const emitText = (text: string) => {
    if (!text) return;
    if (state.destination === 'fldinst') {
      instruction += text;
      return;
    }
    if (state.destination === 'fonttbl') {
      // A font's name ends at ';' (what follows belongs to no font until the next \f).
      if (fontEntry) fontEntry.name += text.split(';')[0];
      if (text.includes(';')) fontEntry = undefined;
      return;
    }
    if (state.destination !== 'text' && state.destination !== 'header' && state.destination !== 'footer') return;
    if (state.chars.hidden) return;
    applySectionBreak();
    const story = storyFor(state.destination);
    const style = runStyle();
    const shown = state.chars.caps ? text.toUpperCase() : text;
    const last = story.inlines[story.inlines.length - 1];
    if (last?.kind === 'text' && last.style === style) last.text += shown;
    else if (last?.kind === 'text' && JSON.stringify(last.style) === JSON.stringify(style)) last.text += shown;
    else story.inlines.push({ kind: 'text', text: shown, style });
  };

  const flushBytes = () => {
    if (!pendingBytes.length) return;
    const codePage = fonts.get(state.chars.font ?? defaultFont ?? -1)?.codePage ?? documentCodePage;
    // Code page 42 is a symbol font (Symbol, Wingdings): its list bullets become Unicode bullets.
    const text = codePage === 42
      ? pendingBytes.map((b) => (b === 0xb7 || b === 0x6c || b === 0x9f ? '•' : b === 0xa7 || b === 0x6e ? '▪' : b === 0xd8 ? '➢' : b === 0xfc ? '✓' : String.fromCharCode(b))).join('')
      : decoderFor(codePage).decode(Uint8Array.from(pendingBytes));
    pendingBytes = [];
    emitText(text);
  };

  const paragraphOf = (story: Story): Paragraph => {
    const p = state.para;
    const style = runStyle();
    return makeParagraph(story.inlines.length ? story.inlines : [{ kind: 'text', text: '', style }], {
      align: p.align,
      indentLeft: p.left,
      indentRight: p.right,
      firstLine: p.first,
      spaceBefore: p.before,
      spaceAfter: p.after,
      lineSpacing: p.line === 0 ? { rule: 'auto', value: 1 } : p.lineMultiple ? { rule: 'auto', value: Math.abs(p.line) / 240 } : p.line < 0 ? { rule: 'exact', value: -p.line * TWIP } : { rule: 'atLeast', value: p.line * TWIP },
      pageBreakBefore: p.pageBreakBefore || undefined,
      outlineLevel: p.outlineLevel,
    });
  };

  const closeTable = (story: Story) => {
    if (!story.table) return;
    story.blocks.push({ kind: 'table', columnWidths: story.table.widths, rows: story.table.rows, indentLeft: story.table.indent, align: 'left' });
    story.table = undefined;
  };

  const endParagraph = () => {
    flushBytes();
    const story = storyFor(state.destination);
    if (story.inlines.length || !sectionBreakPending) applySectionBreak();
    const p = paragraphOf(story);
    story.inlines = [];
    if (state.para.inTable) story.cellBlocks.push(p);
    else {
      closeTable(story);
      story.blocks.push(p);
    }
  };

  const endCell = () => {
    flushBytes();
    const story = storyFor(state.destination);
    if (story.inlines.length || story.cellBlocks.length === 0) story.cellBlocks.push(paragraphOf(story));
    story.inlines = [];
    story.rowCells.push(story.cellBlocks);
    story.cellBlocks = [];
  };

  const endRow = () => {
    flushBytes();
    const story = storyFor(state.destination);
    if (story.inlines.length) endCell();
    const defs: CellDef[] = cellDefs.length ? cellDefs : story.rowCells.map((_, i) => ({ right: (i + 1) * 1440, borders: new Set(), verticalAlign: 'top' }));
    const widths = defs.map((d, i) => Math.max(6, (d.right - (i === 0 ? rowLeft : defs[i - 1].right)) * TWIP));
    const signature = widths.map((w) => w.toFixed(1)).join(',');
    if (story.table && story.table.signature !== signature) closeTable(story);
    story.table ??= { widths, rows: [], signature, indent: Math.max(0, rowLeft * TWIP) };
    const line: Border = { width: 0.5, color: [0, 0, 0] };
    const cells = story.rowCells.slice(0, defs.length).map((blocks, column): TableCell & { column: number } => {
      const def = defs[column];
      return {
        column,
        colSpan: 1,
        rowSpan: 1,
        blocks,
        shading: def.shading ? colors[def.shading] : undefined,
        borders: { top: def.borders.has('top') ? line : undefined, bottom: def.borders.has('bottom') ? line : undefined, left: def.borders.has('left') ? line : undefined, right: def.borders.has('right') ? line : undefined },
        verticalAlign: def.verticalAlign,
        padding: { top: 0, bottom: 0, left: rowPadding, right: rowPadding },
      };
    });
    story.table.rows.push({ cells, minHeight: 0 });
    story.rowCells = [];
    story.cellBlocks = [];
  };

  const endPicture = () => {
    if (!picture) return;
    const pict = picture;
    picture = undefined;
    if (pict.format !== 'image/png' && pict.format !== 'image/jpeg') {
      notes.add('pictures in WMF/EMF format were left out');
      return;
    }
    let data = pict.binary;
    if (!data) {
      const hex = pict.hex.join('').replace(/[^0-9a-f]/gi, '');
      data = new Uint8Array(hex.length >> 1);
      for (let i = 0; i < data.length; i++) data[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    }
    if (!data.length) return;
    const width = ((pict.goalWidth ? pict.goalWidth * TWIP : (pict.width ?? 96) * 0.75) * pict.scaleX) / 100;
    const height = ((pict.goalHeight ? pict.goalHeight * TWIP : (pict.height ?? 96) * 0.75) * pict.scaleY) / 100;
    const story = storyFor(stack.find((s) => s.destination === 'header' || s.destination === 'footer')?.destination ?? 'text');
    story.inlines.push({ kind: 'image', bytes: data, mime: pict.format, width, height });
  };

  const controlWord = (word: string, param: number | undefined) => {
    const on = param === undefined || param !== 0;
    const c = state.chars;
    const p = state.para;
    if (state.destination === 'pict' && picture) {
      switch (word) {
        case 'pngblip': picture.format = 'image/png'; return;
        case 'jpegblip': picture.format = 'image/jpeg'; return;
        case 'emfblip': case 'wmetafile': case 'macpict': case 'dibitmap': case 'wbitmap': picture.format = 'other'; return;
        case 'picw': picture.width = param; return;
        case 'pich': picture.height = param; return;
        case 'picwgoal': picture.goalWidth = param; return;
        case 'pichgoal': picture.goalHeight = param; return;
        case 'picscalex': picture.scaleX = param ?? 100; return;
        case 'picscaley': picture.scaleY = param ?? 100; return;
        default: return;
      }
    }
    switch (word) {
      // Destinations.
      case 'fonttbl': state.destination = 'fonttbl'; return;
      case 'colortbl': state.destination = 'colortbl'; colorEntry = [0, 0, 0]; colorEntrySet = false; return;
      case 'pict': state.destination = 'pict'; picture = { hex: [], scaleX: 100, scaleY: 100 }; return;
      case 'shppict': return;
      case 'fldinst': state.outer = state.destination; state.destination = 'fldinst'; instruction = ''; return;
      case 'fldrslt':
        if (state.field) {
          storyFor(state.destination).inlines.push({ kind: 'field', field: state.field, style: runStyle() });
          state.destination = 'skip';
        }
        return;
      case 'header': case 'headerr': case 'headerf': case 'headerl':
        if (word === 'header' || word === 'headerr') { header = newStory(); state.destination = 'header'; } else state.destination = 'skip';
        return;
      case 'footer': case 'footerr': case 'footerf': case 'footerl':
        if (word === 'footer' || word === 'footerr') { footer = newStory(); state.destination = 'footer'; } else state.destination = 'skip';
        return;
      // Document.
      case 'ansicpg': if (param) documentCodePage = param; return;
      case 'mac': documentCodePage = 10000; return;
      // \pc / \pca (DOS code pages 437/850) are not in the Encoding Standard: their bytes are read as Windows-1252.
      case 'deff': defaultFont = param; return;
      case 'paperw': if (param) page.width = param * TWIP; return;
      case 'paperh': if (param) page.height = param * TWIP; return;
      case 'margl': if (param !== undefined) page.margin.left = param * TWIP; return;
      case 'margr': if (param !== undefined) page.margin.right = param * TWIP; return;
      case 'margt': if (param !== undefined) page.margin.top = param * TWIP; return;
      case 'margb': if (param !== undefined) page.margin.bottom = param * TWIP; return;
      case 'headery': if (param !== undefined) page.headerDistance = param * TWIP; return;
      case 'footery': if (param !== undefined) page.footerDistance = param * TWIP; return;
      case 'landscape': landscape = true; return;
      // Font table entries.
      case 'f':
        if (state.destination === 'fonttbl') { fontEntry = { id: param ?? 0, name: '' }; fonts.set(param ?? 0, fontEntry); }
        else { flushBytes(); c.font = param; }
        return;
      case 'fcharset': if (fontEntry && state.destination === 'fonttbl') fontEntry.codePage = CHARSET_CODEPAGE[param ?? 0]; return;
      case 'cpg': if (fontEntry && state.destination === 'fonttbl' && param) fontEntry.codePage = param; return;
      // Colour table entries.
      case 'red': colorEntry[0] = param ?? 0; colorEntrySet = true; return;
      case 'green': colorEntry[1] = param ?? 0; colorEntrySet = true; return;
      case 'blue': colorEntry[2] = param ?? 0; colorEntrySet = true; return;
      // Characters.
      case 'plain': flushBytes(); state.chars = { ...defaultChars(), font: defaultFont }; return;
      case 'b': flushBytes(); c.bold = on; return;
      case 'i': flushBytes(); c.italic = on; return;
      case 'ul': case 'uld': case 'uldb': case 'ulw': case 'uldash': case 'ulth': case 'ulwave': flushBytes(); c.underline = on; return;
      case 'ulnone': flushBytes(); c.underline = false; return;
      case 'strike': case 'striked': flushBytes(); c.strike = on; return;
      case 'caps': flushBytes(); c.caps = on; return;
      case 'v': flushBytes(); c.hidden = on; return;
      case 'fs': flushBytes(); if (param) c.size = param / 2; return;
      case 'cf': flushBytes(); c.color = param; return;
      case 'highlight': case 'cb': case 'chcbpat': flushBytes(); c.highlight = param || undefined; return;
      case 'super': flushBytes(); c.baseline = 'super'; return;
      case 'sub': flushBytes(); c.baseline = 'sub'; return;
      case 'nosupersub': flushBytes(); c.baseline = undefined; return;
      case 'uc': state.uc = param ?? 1; return;
      case 'u': {
        flushBytes();
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : param ?? 0;
        emitText(String.fromCharCode(code));
        skipChars = state.uc;
        return;
      }
      // Paragraphs.
      case 'pard': state.para = defaultPara(); return;
      case 'ql': p.align = 'left'; return;
      case 'qc': p.align = 'center'; return;
      case 'qr': p.align = 'right'; return;
      case 'qj': case 'qd': p.align = 'justify'; return;
      case 'li': case 'lin': p.left = (param ?? 0) * TWIP; return;
      case 'ri': case 'rin': p.right = (param ?? 0) * TWIP; return;
      case 'fi': p.first = (param ?? 0) * TWIP; return;
      case 'sb': p.before = (param ?? 0) * TWIP; return;
      case 'sa': p.after = (param ?? 0) * TWIP; return;
      case 'sl': p.line = param ?? 0; return;
      case 'slmult': p.lineMultiple = on; return;
      case 'pagebb': p.pageBreakBefore = on; return;
      case 'outlinelevel': p.outlineLevel = param; return;
      case 'intbl': p.inTable = true; return;
      case 'par': endParagraph(); return;
      case 'sect':
        endParagraph();
        closeTable(storyFor(state.destination));
        // The next section starts on a new page unless its own properties say \sbknone (continuous).
        sectionBreakPending = true;
        continuousSection = false;
        return;
      case 'sectd': continuousSection = false; return;
      case 'sbknone': continuousSection = true; return;
      case 'sbkpage': case 'sbkodd': case 'sbkeven': case 'sbkcol': continuousSection = false; return;
      case 'line': flushBytes(); storyFor(state.destination).inlines.push({ kind: 'break', style: runStyle() }); return;
      case 'tab': flushBytes(); storyFor(state.destination).inlines.push({ kind: 'tab', style: runStyle() }); return;
      case 'page': {
        flushBytes();
        const story = storyFor(state.destination);
        if (story.inlines.length) endParagraph();
        closeTable(story);
        story.blocks.push({ kind: 'pageBreak' });
        return;
      }
      case 'chpgn': flushBytes(); storyFor(state.destination).inlines.push({ kind: 'field', field: 'PAGE', style: runStyle() }); return;
      // Special characters.
      case 'emdash': emitText('—'); return;
      case 'endash': emitText('–'); return;
      case 'bullet': emitText('•'); return;
      case 'lquote': emitText('‘'); return;
      case 'rquote': emitText('’'); return;
      case 'ldblquote': emitText('“'); return;
      case 'rdblquote': emitText('”'); return;
      case 'emspace': case 'enspace': case 'qmspace': emitText(' '); return;
      // Tables.
      case 'trowd': cellDefs = []; pendingBorder = undefined; pendingShading = undefined; pendingVAlign = 'top'; rowLeft = 0; return;
      case 'trleft': rowLeft = param ?? 0; return;
      case 'trgaph': rowPadding = Math.max(0, (param ?? 108) * TWIP); return;
      case 'clbrdrt': pendingBorder = 'top'; pendingBorders.add('top'); return;
      case 'clbrdrl': pendingBorder = 'left'; pendingBorders.add('left'); return;
      case 'clbrdrb': pendingBorder = 'bottom'; pendingBorders.add('bottom'); return;
      case 'clbrdrr': pendingBorder = 'right'; pendingBorders.add('right'); return;
      case 'brdrnone': case 'brdrnil': if (pendingBorder) pendingBorders.delete(pendingBorder); return;
      case 'clcbpat': pendingShading = param; return;
      case 'clvertalc': pendingVAlign = 'middle'; return;
      case 'clvertalb': pendingVAlign = 'bottom'; return;
      case 'cellx':
        cellDefs.push({ right: param ?? 0, shading: pendingShading, borders: new Set(pendingBorders), verticalAlign: pendingVAlign });
        pendingBorders.clear(); pendingBorder = undefined; pendingShading = undefined; pendingVAlign = 'top';
        return;
      case 'cell': endCell(); return;
      case 'row': endRow(); return;
      case 'nestcell': case 'nestrow': notes.add('nested tables were flattened'); return;
      default: return;
    }
  };
  const pendingBorders = new Set<'top' | 'left' | 'bottom' | 'right'>();

  let i = source.indexOf('{');
  let starPending = false;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '{' || ch === '}') starPending = false; // \* applies to the control word right after it only
    if (ch === '{') {
      flushBytes();
      stack.push(state);
      state = { chars: { ...state.chars }, para: { ...state.para }, destination: state.destination, uc: state.uc, field: state.field };
      i++;
      continue;
    }
    if (ch === '}') {
      flushBytes();
      const closing = state;
      if (closing.destination === 'pict' && stack.length && stack[stack.length - 1].destination !== 'pict') endPicture();
      if ((closing.destination === 'header' || closing.destination === 'footer') && stack.length && stack[stack.length - 1].destination !== closing.destination) {
        const story = storyFor(closing.destination);
        if (story.inlines.length) endParagraph();
        closeTable(story);
      }
      state = stack.pop() ?? state;
      if (closing.destination === 'fldinst' && closing.outer !== 'fldinst') {
        const kind = /^\s*(PAGE|NUMPAGES)\b/i.exec(instruction)?.[1]?.toUpperCase();
        if (kind === 'PAGE' || kind === 'NUMPAGES') state.field = kind;
      }
      i++;
      if (stack.length === 0) break;
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) break;
      if (/[a-zA-Z]/.test(next)) {
        let j = i + 1;
        while (j < source.length && /[a-zA-Z]/.test(source[j])) j++;
        const word = source.slice(i + 1, j);
        let k = j;
        if (source[k] === '-' || /\d/.test(source[k] ?? '')) {
          k++;
          while (k < source.length && /\d/.test(source[k])) k++;
        }
        const param = k > j ? Number(source.slice(j, k)) : undefined;
        if (source[k] === ' ') k++;
        i = k;
        if (word === 'bin') {
          const count = Math.max(0, param ?? 0);
          if (picture && state.destination === 'pict') picture.binary = Uint8Array.from(source.slice(i, i + count), (c) => c.charCodeAt(0));
          i += count;
          continue;
        }
        if (starPending) {
          starPending = false;
          if (word !== 'shppict' && word !== 'fldinst') { state.destination = 'skip'; continue; }
        }
        if (state.destination === 'skip') continue;
        if (SKIP.has(word)) { state.destination = 'skip'; continue; }
        if (skipChars > 0 && word !== 'u') {
          // A control word stands in for one skipped character only if it produces text; keep formatting ones.
          if (['emdash', 'endash', 'bullet', 'lquote', 'rquote', 'ldblquote', 'rdblquote', 'tab', 'line', 'par'].includes(word)) { skipChars--; continue; }
        }
        if (word !== 'u') flushBytes();
        controlWord(word, param);
        continue;
      }
      // Control symbols.
      i += 2;
      if (next === '*') { starPending = true; continue; }
      if (state.destination === 'skip') { if (next === "'") i += 2; continue; }
      if (next === "'") {
        const byte = parseInt(source.slice(i, i + 2), 16);
        i += 2;
        if (skipChars > 0) { skipChars--; continue; }
        if (Number.isFinite(byte)) {
          if (state.destination === 'text' || state.destination === 'header' || state.destination === 'footer' || state.destination === 'fonttbl') pendingBytes.push(byte);
        }
        continue;
      }
      if (skipChars > 0) { skipChars--; continue; }
      flushBytes();
      if (next === '~') emitText('\u00a0');
      else if (next === '_') emitText('\u2011');
      else if (next === '-') { /* optional hyphen */ }
      else if (next === '\\' || next === '{' || next === '}') emitText(next);
      else if (next === '\n' || next === '\r') controlWord('par', undefined);
      else if (next === '|' || next === ':') { /* formula / index sub-entry */ }
      continue;
    }
    if (ch === '\r' || ch === '\n') { i++; continue; }
    // Plain text up to the next special character.
    let j = i;
    while (j < source.length && source[j] !== '\\' && source[j] !== '{' && source[j] !== '}' && source[j] !== '\r' && source[j] !== '\n') j++;
    let text = source.slice(i, j);
    i = j;
    if (state.destination === 'skip') continue;
    if (skipChars > 0) {
      const skipped = Math.min(skipChars, text.length);
      text = text.slice(skipped);
      skipChars -= skipped;
    }
    if (!text) continue;
    if (state.destination === 'pict') { picture?.hex.push(text); continue; }
    if (state.destination === 'colortbl') {
      for (const c of text) {
        if (c !== ';') continue;
        colors.push(colorEntrySet ? [colorEntry[0] / 255, colorEntry[1] / 255, colorEntry[2] / 255] : undefined);
        colorEntry = [0, 0, 0];
        colorEntrySet = false;
      }
      continue;
    }
    // Bytes ≥ 0x80 written raw are in the document's code page, like \'hh.
    let plain = '';
    for (const c of text) {
      if (c.charCodeAt(0) >= 0x80) {
        if (plain) { flushBytes(); emitText(plain); plain = ''; }
        pendingBytes.push(c.charCodeAt(0));
      } else {
        if (pendingBytes.length) flushBytes();
        plain += c;
      }
    }
    if (plain) { flushBytes(); emitText(plain); }
  }
  flushBytes();
  if (body.inlines.length) endParagraph();
  if (body.rowCells.length) endRow();
  closeTable(body);
  if (landscape && page.width < page.height) [page.width, page.height] = [page.height, page.width];
  // A section or page break at the very end would leave a blank last page.
  while (body.blocks.length && body.blocks[body.blocks.length - 1].kind === 'pageBreak') body.blocks.pop();
  const blocks = body.blocks.length ? body.blocks : [makeParagraph([{ kind: 'text', text: '', style: { size: 12 } }])];
  return { sections: [{ page, blocks, header: header?.blocks.length ? header.blocks : undefined, footer: footer?.blocks.length ? footer.blocks : undefined }], notes: [...notes] };
}

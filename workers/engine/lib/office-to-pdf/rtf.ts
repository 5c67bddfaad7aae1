/**
 * A compact RTF reader into the layout model: groups and control words; the font and colour
 * tables; character formatting (\b \i \ul \strike \fs \f \cf \highlight \super \sub); paragraph
 * formatting (\qc \qr \qj \li \ri \fi \sb \sa \sl \pagebb \outlinelevel); \par \line \tab \page;
 * \uN with \ucN skipping; \'hh in the document's or the font's code page; simple tables
 * (\trowd \cellx \cell \row, cell shading and borders); headers and footers; PNG and JPEG
 * pictures (\pict \pngblip \jpegblip). Unknown \* destinations (optional ones a
 * reader may ignore) are skipped with their group.
 */
import type {
  Block,
  Border,
  Inline,
  Paragraph,
  PageSetup,
  Rgb,
  RunStyle,
  Section,
  TableCell,
  TableRow,
  Underline,
} from './model.ts';
import { paragraph as makeParagraph } from './model.ts';

const TWIP = 1 / 20;

/** \fcharset → code page, for \'hh bytes of text in that font. */
const CHARSET_CODEPAGE: Record<number, number> = {
  0: 1252,
  2: 42,
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};
const CODEPAGE_LABEL: Record<number, string> = {
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  874: 'windows-874',
};

/** Destinations whose text is not document text (skipped with their whole group). */
const SKIP = new Set([
  'stylesheet',
  'info',
  'object',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'footnote',
  'annotation',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'pgdsctbl',
  'mmathPr',
  'fftitle',
  'ffdeftext',
  'ffformat',
  'ffhelptext',
  'ffstattext',
  'ffentrymcr',
  'ffexitmcr',
  'formfield',
  'template',
  'private',
  'userprops',
  'docvar',
  'pn',
  'listpicture',
  'wgrffmtfilter',
]);

/** RTF's underline control words: single, dotted, double, words only, dashed, thick, wave. */
const RTF_UNDERLINES: Record<string, Underline> = {
  ul: { line: 'single' },
  uld: { line: 'dotted' },
  uldb: { line: 'double' },
  ulw: { line: 'single', wordsOnly: true },
  uldash: { line: 'dashed' },
  ulth: { line: 'single', heavy: true },
  ulwave: { line: 'wave' },
};

interface CharProps {
  font?: number;
  size: number;
  bold: boolean;
  italic: boolean;
  underline?: Underline;
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

const defaultChars = (): CharProps => ({
  size: 12,
  bold: false,
  italic: false,
  strike: false,
  caps: false,
  hidden: false,
});
const defaultPara = (): ParaProps => ({
  align: 'left',
  left: 0,
  right: 0,
  first: 0,
  before: 0,
  after: 0,
  line: 0,
  lineMultiple: false,
  pageBreakBefore: false,
  inTable: false,
});

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

interface Picture {
  format?: 'image/png' | 'image/jpeg' | 'image/x-emf' | 'image/x-wmf' | 'other';
  hex: string[];
  binary?: Uint8Array;
  width?: number;
  height?: number;
  goalWidth?: number;
  goalHeight?: number;
  scaleX: number;
  scaleY: number;
}

type Side = 'top' | 'left' | 'bottom' | 'right';

/** Control words that produce text: one of them stands in for a character skipped after \uN. */
const TEXT_WORDS = new Set([
  'emdash',
  'endash',
  'bullet',
  'lquote',
  'rquote',
  'ldblquote',
  'rdblquote',
  'tab',
  'line',
  'par',
]);

const SPECIAL_CHARACTERS: Record<string, string> = {
  emdash: '—',
  endash: '–',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};

/** Code page 42 is a symbol font (Symbol, Wingdings): its list bullets become Unicode bullets. */
function symbolText(bytes: number[]): string {
  const glyph = (b: number) =>
    b === 0xb7 || b === 0x6c || b === 0x9f
      ? '•'
      : b === 0xa7 || b === 0x6e
        ? '▪'
        : b === 0xd8
          ? '➢'
          : b === 0xfc
            ? '✓'
            : String.fromCharCode(b);
  return bytes.map(glyph).join('');
}

function lineSpacingOf(p: ParaProps): Paragraph['lineSpacing'] {
  if (p.line === 0) return { rule: 'auto', value: 1 };
  if (p.lineMultiple) return { rule: 'auto', value: Math.abs(p.line) / 240 };
  return p.line < 0 ? { rule: 'exact', value: -p.line * TWIP } : { rule: 'atLeast', value: p.line * TWIP };
}

/** The reader's state while it walks the RTF source: group stack, tables being read, stories being built. */
class RtfReader {
  readonly notes = new Set<string>();
  readonly fonts = new Map<number, { name: string; codePage?: number }>();
  readonly colors: Array<Rgb | undefined> = [];
  documentCodePage = 1252;
  defaultFont?: number;
  readonly page: PageSetup = {
    width: 612,
    height: 792,
    margin: { top: 72, bottom: 72, left: 90, right: 90 },
    headerDistance: 36,
    footerDistance: 36,
  };
  landscape = false;
  continuousSection = false;
  sectionBreakPending = false;

  state: State = { chars: defaultChars(), para: defaultPara(), destination: 'text', uc: 1 };
  readonly stack: State[] = [];
  readonly body = newStory();
  header?: Story;
  footer?: Story;

  // Font table entry being read; colour being read; picture being read.
  fontEntry?: { id: number; name: string; codePage?: number };
  colorEntry: [number, number, number] = [0, 0, 0];
  colorEntrySet = false;
  picture?: Picture;

  // Row definition.
  cellDefs: CellDef[] = [];
  pendingBorder?: Side;
  readonly pendingBorders = new Set<Side>();
  pendingShading?: number;
  pendingVAlign: TableCell['verticalAlign'] = 'top';
  rowLeft = 0;
  rowPadding = 5.4;

  instruction = '';
  /** \'hh bytes wait here so multi-byte code pages decode in one go. */
  pendingBytes: number[] = [];
  skipChars = 0;

  /** Called before the first content of a section: the section break becomes a page break. */
  applySectionBreak(): void {
    if (!this.sectionBreakPending || this.state.destination !== 'text') return;
    this.sectionBreakPending = false;
    if (!this.continuousSection) this.body.blocks.push({ kind: 'pageBreak' });
  }

  storyFor(destination: Destination): Story {
    if (destination === 'header') return (this.header ??= newStory());
    if (destination === 'footer') return (this.footer ??= newStory());
    return this.body;
  }

  runStyle(): RunStyle {
    const c = this.state.chars;
    const font = this.fonts.get(c.font ?? this.defaultFont ?? -1)?.name;
    return {
      font,
      size: c.size,
      bold: c.bold || undefined,
      italic: c.italic || undefined,
      underline: c.underline,
      strike: c.strike || undefined,
      color: c.color ? this.colors[c.color] : undefined,
      highlight: c.highlight ? this.colors[c.highlight] : undefined,
      baseline: c.baseline,
    };
  }

  emitText(text: string): void {
    if (!text) return;
    const { destination } = this.state;
    if (destination === 'fldinst') {
      this.instruction += text;
      return;
    }
    if (destination === 'fonttbl') {
      // A font's name ends at ';' (what follows belongs to no font until the next \f).
      if (this.fontEntry) this.fontEntry.name += text.split(';')[0];
      if (text.includes(';')) this.fontEntry = undefined;
      return;
    }
    if (destination !== 'text' && destination !== 'header' && destination !== 'footer') return;
    if (this.state.chars.hidden) return;
    this.applySectionBreak();
    const story = this.storyFor(destination);
    const style = this.runStyle();
    const shown = this.state.chars.caps ? text.toUpperCase() : text;
    const last = story.inlines[story.inlines.length - 1];
    if (last?.kind === 'text' && last.style === style) last.text += shown;
    else if (last?.kind === 'text' && JSON.stringify(last.style) === JSON.stringify(style)) last.text += shown;
    else story.inlines.push({ kind: 'text', text: shown, style });
  }

  flushBytes(): void {
    if (!this.pendingBytes.length) return;
    const codePage = this.fonts.get(this.state.chars.font ?? this.defaultFont ?? -1)?.codePage ?? this.documentCodePage;
    const text =
      codePage === 42 ? symbolText(this.pendingBytes) : decoderFor(codePage).decode(Uint8Array.from(this.pendingBytes));
    this.pendingBytes = [];
    this.emitText(text);
  }

  paragraphOf(story: Story): Paragraph {
    const p = this.state.para;
    const style = this.runStyle();
    return makeParagraph(story.inlines.length ? story.inlines : [{ kind: 'text', text: '', style }], {
      align: p.align,
      indentLeft: p.left,
      indentRight: p.right,
      firstLine: p.first,
      spaceBefore: p.before,
      spaceAfter: p.after,
      lineSpacing: lineSpacingOf(p),
      pageBreakBefore: p.pageBreakBefore || undefined,
      outlineLevel: p.outlineLevel,
    });
  }

  closeTable(story: Story): void {
    if (!story.table) return;
    const { widths, rows, indent } = story.table;
    story.blocks.push({ kind: 'table', columnWidths: widths, rows, indentLeft: indent, align: 'left' });
    story.table = undefined;
  }

  endParagraph(): void {
    this.flushBytes();
    const story = this.storyFor(this.state.destination);
    if (story.inlines.length || !this.sectionBreakPending) this.applySectionBreak();
    const p = this.paragraphOf(story);
    story.inlines = [];
    if (this.state.para.inTable) story.cellBlocks.push(p);
    else {
      this.closeTable(story);
      story.blocks.push(p);
    }
  }

  endCell(): void {
    this.flushBytes();
    const story = this.storyFor(this.state.destination);
    if (story.inlines.length || story.cellBlocks.length === 0) story.cellBlocks.push(this.paragraphOf(story));
    story.inlines = [];
    story.rowCells.push(story.cellBlocks);
    story.cellBlocks = [];
  }

  endRow(): void {
    this.flushBytes();
    const story = this.storyFor(this.state.destination);
    if (story.inlines.length) this.endCell();
    const defs: CellDef[] = this.cellDefs.length
      ? this.cellDefs
      : story.rowCells.map((_, i) => ({ right: (i + 1) * 1440, borders: new Set(), verticalAlign: 'top' }));
    const widths = defs.map((d, i) => Math.max(6, (d.right - (i === 0 ? this.rowLeft : defs[i - 1].right)) * TWIP));
    const signature = widths.map((w) => w.toFixed(1)).join(',');
    if (story.table && story.table.signature !== signature) this.closeTable(story);
    story.table ??= { widths, rows: [], signature, indent: Math.max(0, this.rowLeft * TWIP) };
    const line: Border = { width: 0.5, color: [0, 0, 0] };
    const cells = story.rowCells.slice(0, defs.length).map((blocks, column): TableCell & { column: number } => {
      const def = defs[column];
      const side = (name: Side) => (def.borders.has(name) ? line : undefined);
      return {
        column,
        colSpan: 1,
        rowSpan: 1,
        blocks,
        shading: def.shading ? this.colors[def.shading] : undefined,
        borders: { top: side('top'), bottom: side('bottom'), left: side('left'), right: side('right') },
        verticalAlign: def.verticalAlign,
        padding: { top: 0, bottom: 0, left: this.rowPadding, right: this.rowPadding },
      };
    });
    story.table.rows.push({ cells, minHeight: 0 });
    story.rowCells = [];
    story.cellBlocks = [];
  }

  endPicture(): void {
    if (!this.picture) return;
    const pict = this.picture;
    this.picture = undefined;
    if (!pict.format || pict.format === 'other') {
      this.notes.add('pictures in Macintosh PICT and device-dependent bitmap formats were left out');
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
    const inStory = this.stack.find((s) => s.destination === 'header' || s.destination === 'footer')?.destination;
    this.storyFor(inStory ?? 'text').inlines.push({ kind: 'image', bytes: data, mime: pict.format, width, height });
  }

  /** A control word inside \pict: its format and size. */
  pictureWord(picture: Picture, word: string, param: number | undefined): void {
    switch (word) {
      case 'pngblip':
        picture.format = 'image/png';
        return;
      case 'jpegblip':
        picture.format = 'image/jpeg';
        return;
      case 'emfblip':
        picture.format = 'image/x-emf';
        return;
      case 'wmetafile':
        picture.format = 'image/x-wmf';
        return;
      case 'macpict':
      case 'dibitmap':
      case 'wbitmap':
        picture.format = 'other';
        return;
      case 'picw':
        picture.width = param;
        return;
      case 'pich':
        picture.height = param;
        return;
      case 'picwgoal':
        picture.goalWidth = param;
        return;
      case 'pichgoal':
        picture.goalHeight = param;
        return;
      case 'picscalex':
        picture.scaleX = param ?? 100;
        return;
      case 'picscaley':
        picture.scaleY = param ?? 100;
        return;
      default:
        return;
    }
  }

  /** Destinations, document and section properties, font and colour table entries; false if not one. */
  documentWord(word: string, param: number | undefined): boolean {
    const { state, page } = this;
    switch (word) {
      case 'fonttbl':
        state.destination = 'fonttbl';
        return true;
      case 'colortbl':
        state.destination = 'colortbl';
        this.colorEntry = [0, 0, 0];
        this.colorEntrySet = false;
        return true;
      case 'pict':
        state.destination = 'pict';
        this.picture = { hex: [], scaleX: 100, scaleY: 100 };
        return true;
      case 'shppict':
        return true;
      case 'fldinst':
        state.outer = state.destination;
        state.destination = 'fldinst';
        this.instruction = '';
        return true;
      case 'fldrslt':
        if (state.field) {
          this.storyFor(state.destination).inlines.push({ kind: 'field', field: state.field, style: this.runStyle() });
          state.destination = 'skip';
        }
        return true;
      case 'header':
      case 'headerr':
      case 'headerf':
      case 'headerl':
        if (word === 'header' || word === 'headerr') {
          this.header = newStory();
          state.destination = 'header';
        } else state.destination = 'skip';
        return true;
      case 'footer':
      case 'footerr':
      case 'footerf':
      case 'footerl':
        if (word === 'footer' || word === 'footerr') {
          this.footer = newStory();
          state.destination = 'footer';
        } else state.destination = 'skip';
        return true;
      case 'ansicpg':
        if (param) this.documentCodePage = param;
        return true;
      case 'mac':
        this.documentCodePage = 10000;
        return true;
      // \pc / \pca (DOS code pages 437/850) are not in the Encoding Standard: their bytes are read as Windows-1252.
      case 'deff':
        this.defaultFont = param;
        return true;
      case 'paperw':
        if (param) page.width = param * TWIP;
        return true;
      case 'paperh':
        if (param) page.height = param * TWIP;
        return true;
      case 'margl':
        if (param !== undefined) page.margin.left = param * TWIP;
        return true;
      case 'margr':
        if (param !== undefined) page.margin.right = param * TWIP;
        return true;
      case 'margt':
        if (param !== undefined) page.margin.top = param * TWIP;
        return true;
      case 'margb':
        if (param !== undefined) page.margin.bottom = param * TWIP;
        return true;
      case 'headery':
        if (param !== undefined) page.headerDistance = param * TWIP;
        return true;
      case 'footery':
        if (param !== undefined) page.footerDistance = param * TWIP;
        return true;
      case 'landscape':
        this.landscape = true;
        return true;
      case 'f':
        if (state.destination === 'fonttbl') {
          this.fontEntry = { id: param ?? 0, name: '' };
          this.fonts.set(param ?? 0, this.fontEntry);
        } else {
          this.flushBytes();
          state.chars.font = param;
        }
        return true;
      case 'fcharset':
        if (this.fontEntry && state.destination === 'fonttbl') this.fontEntry.codePage = CHARSET_CODEPAGE[param ?? 0];
        return true;
      case 'cpg':
        if (this.fontEntry && state.destination === 'fonttbl' && param) this.fontEntry.codePage = param;
        return true;
      case 'red':
        this.colorEntry[0] = param ?? 0;
        this.colorEntrySet = true;
        return true;
      case 'green':
        this.colorEntry[1] = param ?? 0;
        this.colorEntrySet = true;
        return true;
      case 'blue':
        this.colorEntry[2] = param ?? 0;
        this.colorEntrySet = true;
        return true;
      default:
        return false;
    }
  }

  /** Character formatting; false if the word is not one. */
  characterWord(word: string, param: number | undefined): boolean {
    const on = param === undefined || param !== 0;
    const c = this.state.chars;
    switch (word) {
      case 'plain':
        this.flushBytes();
        this.state.chars = { ...defaultChars(), font: this.defaultFont };
        return true;
      case 'b':
        this.flushBytes();
        c.bold = on;
        return true;
      case 'i':
        this.flushBytes();
        c.italic = on;
        return true;
      case 'ul':
      case 'uld':
      case 'uldb':
      case 'ulw':
      case 'uldash':
      case 'ulth':
      case 'ulwave':
        this.flushBytes();
        c.underline = on ? RTF_UNDERLINES[word] : undefined;
        return true;
      case 'ulnone':
        this.flushBytes();
        c.underline = undefined;
        return true;
      case 'strike':
      case 'striked':
        this.flushBytes();
        c.strike = on;
        return true;
      case 'caps':
        this.flushBytes();
        c.caps = on;
        return true;
      case 'v':
        this.flushBytes();
        c.hidden = on;
        return true;
      case 'fs':
        this.flushBytes();
        if (param) c.size = param / 2;
        return true;
      case 'cf':
        this.flushBytes();
        c.color = param;
        return true;
      case 'highlight':
      case 'cb':
      case 'chcbpat':
        this.flushBytes();
        c.highlight = param || undefined;
        return true;
      case 'super':
        this.flushBytes();
        c.baseline = 'super';
        return true;
      case 'sub':
        this.flushBytes();
        c.baseline = 'sub';
        return true;
      case 'nosupersub':
        this.flushBytes();
        c.baseline = undefined;
        return true;
      case 'uc':
        this.state.uc = param ?? 1;
        return true;
      case 'u': {
        this.flushBytes();
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        this.emitText(String.fromCharCode(code));
        this.skipChars = this.state.uc;
        return true;
      }
      default:
        return false;
    }
  }

  /** Paragraph formatting, breaks and sections; false if the word is not one. */
  paragraphWord(word: string, param: number | undefined): boolean {
    const on = param === undefined || param !== 0;
    const p = this.state.para;
    switch (word) {
      case 'pard':
        this.state.para = defaultPara();
        return true;
      case 'ql':
        p.align = 'left';
        return true;
      case 'qc':
        p.align = 'center';
        return true;
      case 'qr':
        p.align = 'right';
        return true;
      case 'qj':
      case 'qd':
        p.align = 'justify';
        return true;
      case 'li':
      case 'lin':
        p.left = (param ?? 0) * TWIP;
        return true;
      case 'ri':
      case 'rin':
        p.right = (param ?? 0) * TWIP;
        return true;
      case 'fi':
        p.first = (param ?? 0) * TWIP;
        return true;
      case 'sb':
        p.before = (param ?? 0) * TWIP;
        return true;
      case 'sa':
        p.after = (param ?? 0) * TWIP;
        return true;
      case 'sl':
        p.line = param ?? 0;
        return true;
      case 'slmult':
        p.lineMultiple = on;
        return true;
      case 'pagebb':
        p.pageBreakBefore = on;
        return true;
      case 'outlinelevel':
        p.outlineLevel = param;
        return true;
      case 'intbl':
        p.inTable = true;
        return true;
      case 'par':
        this.endParagraph();
        return true;
      case 'sect':
        this.endParagraph();
        this.closeTable(this.storyFor(this.state.destination));
        // The next section starts on a new page unless its own properties say \sbknone (continuous).
        this.sectionBreakPending = true;
        this.continuousSection = false;
        return true;
      case 'sectd':
        this.continuousSection = false;
        return true;
      case 'sbknone':
        this.continuousSection = true;
        return true;
      case 'sbkpage':
      case 'sbkodd':
      case 'sbkeven':
      case 'sbkcol':
        this.continuousSection = false;
        return true;
      case 'line':
      case 'tab':
        this.flushBytes();
        this.storyFor(this.state.destination).inlines.push({
          kind: word === 'line' ? 'break' : 'tab',
          style: this.runStyle(),
        });
        return true;
      case 'page': {
        this.flushBytes();
        const story = this.storyFor(this.state.destination);
        if (story.inlines.length) this.endParagraph();
        this.closeTable(story);
        story.blocks.push({ kind: 'pageBreak' });
        return true;
      }
      case 'chpgn':
        this.flushBytes();
        this.storyFor(this.state.destination).inlines.push({ kind: 'field', field: 'PAGE', style: this.runStyle() });
        return true;
      default:
        return false;
    }
  }

  /** Row and cell definitions and ends (\trowd … \cellx, \cell, \row). */
  tableWord(word: string, param: number | undefined): void {
    const border = (side: Side) => {
      this.pendingBorder = side;
      this.pendingBorders.add(side);
    };
    switch (word) {
      case 'trowd':
        this.cellDefs = [];
        this.pendingBorder = undefined;
        this.pendingShading = undefined;
        this.pendingVAlign = 'top';
        this.rowLeft = 0;
        return;
      case 'trleft':
        this.rowLeft = param ?? 0;
        return;
      case 'trgaph':
        this.rowPadding = Math.max(0, (param ?? 108) * TWIP);
        return;
      case 'clbrdrt':
        border('top');
        return;
      case 'clbrdrl':
        border('left');
        return;
      case 'clbrdrb':
        border('bottom');
        return;
      case 'clbrdrr':
        border('right');
        return;
      case 'brdrnone':
      case 'brdrnil':
        if (this.pendingBorder) this.pendingBorders.delete(this.pendingBorder);
        return;
      case 'clcbpat':
        this.pendingShading = param;
        return;
      case 'clvertalc':
        this.pendingVAlign = 'middle';
        return;
      case 'clvertalb':
        this.pendingVAlign = 'bottom';
        return;
      case 'cellx':
        this.cellDefs.push({
          right: param ?? 0,
          shading: this.pendingShading,
          borders: new Set(this.pendingBorders),
          verticalAlign: this.pendingVAlign,
        });
        this.pendingBorders.clear();
        this.pendingBorder = undefined;
        this.pendingShading = undefined;
        this.pendingVAlign = 'top';
        return;
      case 'cell':
        this.endCell();
        return;
      case 'row':
        this.endRow();
        return;
      case 'nestcell':
      case 'nestrow':
        this.notes.add('nested tables were flattened');
        return;
      default:
        return;
    }
  }

  controlWord(word: string, param: number | undefined): void {
    if (this.state.destination === 'pict' && this.picture) return this.pictureWord(this.picture, word, param);
    if (this.documentWord(word, param) || this.characterWord(word, param) || this.paragraphWord(word, param)) return;
    if (word in SPECIAL_CHARACTERS) return this.emitText(SPECIAL_CHARACTERS[word]);
    this.tableWord(word, param);
  }

  openGroup(): void {
    this.flushBytes();
    this.stack.push(this.state);
    const { chars, para, destination, uc, field } = this.state;
    this.state = { chars: { ...chars }, para: { ...para }, destination, uc, field };
  }

  closeGroup(): void {
    this.flushBytes();
    const closing = this.state;
    const { stack } = this;
    if (closing.destination === 'pict' && stack.length && stack[stack.length - 1].destination !== 'pict')
      this.endPicture();
    const isStory = closing.destination === 'header' || closing.destination === 'footer';
    if (isStory && stack.length && stack[stack.length - 1].destination !== closing.destination) {
      const story = this.storyFor(closing.destination);
      if (story.inlines.length) this.endParagraph();
      this.closeTable(story);
    }
    this.state = stack.pop() ?? this.state;
    if (closing.destination === 'fldinst' && closing.outer !== 'fldinst') {
      const kind = /^\s*(PAGE|NUMPAGES)\b/i.exec(this.instruction)?.[1]?.toUpperCase();
      if (kind === 'PAGE' || kind === 'NUMPAGES') this.state.field = kind;
    }
  }

  /** A control symbol (\~ \_ \- \\ \{ \} \'hh, a backslash before a line end…). */
  controlSymbol(source: string, next: string, i: number): number {
    if (this.state.destination === 'skip') return next === "'" ? i + 2 : i;
    if (next === "'") {
      const byte = parseInt(source.slice(i, i + 2), 16);
      if (this.skipChars > 0) {
        this.skipChars--;
        return i + 2;
      }
      const { destination } = this.state;
      const readsBytes =
        destination === 'text' || destination === 'header' || destination === 'footer' || destination === 'fonttbl';
      if (Number.isFinite(byte) && readsBytes) this.pendingBytes.push(byte);
      return i + 2;
    }
    if (this.skipChars > 0) {
      this.skipChars--;
      return i;
    }
    this.flushBytes();
    if (next === '~') this.emitText('\u00a0');
    else if (next === '_') this.emitText('\u2011');
    else if (next === '\\' || next === '{' || next === '}') this.emitText(next);
    else if (next === '\n' || next === '\r') this.controlWord('par', undefined);
    // \- (optional hyphen), \| and \: (formula, index sub-entry) are ignored.
    return i;
  }

  /** Plain text (up to the next special character) in the current destination. */
  plainText(text: string): void {
    if (this.state.destination === 'skip') return;
    if (this.skipChars > 0) {
      const skipped = Math.min(this.skipChars, text.length);
      text = text.slice(skipped);
      this.skipChars -= skipped;
    }
    if (!text) return;
    if (this.state.destination === 'pict') {
      this.picture?.hex.push(text);
      return;
    }
    if (this.state.destination === 'colortbl') {
      for (const c of text) {
        if (c !== ';') continue;
        const [r, g, b] = this.colorEntry;
        this.colors.push(this.colorEntrySet ? [r / 255, g / 255, b / 255] : undefined);
        this.colorEntry = [0, 0, 0];
        this.colorEntrySet = false;
      }
      return;
    }
    // Bytes ≥ 0x80 written raw are in the document's code page, like \'hh.
    let plain = '';
    for (const c of text) {
      if (c.charCodeAt(0) >= 0x80) {
        if (plain) {
          this.flushBytes();
          this.emitText(plain);
          plain = '';
        }
        this.pendingBytes.push(c.charCodeAt(0));
      } else {
        if (this.pendingBytes.length) this.flushBytes();
        plain += c;
      }
    }
    if (plain) {
      this.flushBytes();
      this.emitText(plain);
    }
  }

  /** The document as one section (headers and footers of the first \header / \footer). */
  result(): RtfReadResult {
    const { body, page, header, footer } = this;
    this.flushBytes();
    if (body.inlines.length) this.endParagraph();
    if (body.rowCells.length) this.endRow();
    this.closeTable(body);
    if (this.landscape && page.width < page.height) [page.width, page.height] = [page.height, page.width];
    // A section or page break at the very end would leave a blank last page.
    while (body.blocks.length && body.blocks[body.blocks.length - 1].kind === 'pageBreak') body.blocks.pop();
    const blocks = body.blocks.length
      ? body.blocks
      : [makeParagraph([{ kind: 'text', text: '', style: { size: 12 } }])];
    const section: Section = {
      page,
      blocks,
      header: header?.blocks.length ? header.blocks : undefined,
      footer: footer?.blocks.length ? footer.blocks : undefined,
    };
    return { sections: [section], notes: [...this.notes] };
  }
}

/** A control word at `i` (after its backslash): its name, numeric parameter, and where the source goes on. */
function readControlWord(source: string, i: number): { word: string; param?: number; end: number } {
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
  return { word, param, end: k };
}

export function readRtf(bytes: Uint8Array): RtfReadResult {
  // RTF is 7-bit text with escapes; reading it byte for byte keeps \bin data and stray 8-bit bytes intact.
  let source = '';
  for (let i = 0; i < bytes.length; i += 0x8000) source += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  if (!source.startsWith('{\\rtf')) throw new Error('it does not start with {\\rtf');
  const reader = new RtfReader();
  let i = source.indexOf('{');
  let starPending = false;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '{' || ch === '}') starPending = false; // \* applies to the control word right after it only
    if (ch === '{') {
      reader.openGroup();
      i++;
      continue;
    }
    if (ch === '}') {
      reader.closeGroup();
      i++;
      if (reader.stack.length === 0) break;
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) break;
      if (!/[a-zA-Z]/.test(next)) {
        // Control symbols.
        i += 2;
        if (next === '*') starPending = true;
        else i = reader.controlSymbol(source, next, i);
        continue;
      }
      const { word, param, end } = readControlWord(source, i);
      i = end;
      if (word === 'bin') {
        const count = Math.max(0, param ?? 0);
        if (reader.picture && reader.state.destination === 'pict') {
          reader.picture.binary = Uint8Array.from(source.slice(i, i + count), (c) => c.charCodeAt(0));
        }
        i += count;
        continue;
      }
      if (starPending) {
        starPending = false;
        if (word !== 'shppict' && word !== 'fldinst') {
          reader.state.destination = 'skip';
          continue;
        }
      }
      if (reader.state.destination === 'skip') continue;
      if (SKIP.has(word)) {
        reader.state.destination = 'skip';
        continue;
      }
      // A control word stands in for one skipped character only if it produces text; keep formatting ones.
      if (reader.skipChars > 0 && word !== 'u' && TEXT_WORDS.has(word)) {
        reader.skipChars--;
        continue;
      }
      if (word !== 'u') reader.flushBytes();
      reader.controlWord(word, param);
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    // Plain text up to the next special character.
    let j = i;
    while (
      j < source.length &&
      source[j] !== '\\' &&
      source[j] !== '{' &&
      source[j] !== '}' &&
      source[j] !== '\r' &&
      source[j] !== '\n'
    )
      j++;
    reader.plainText(source.slice(i, j));
    i = j;
  }
  return reader.result();
}

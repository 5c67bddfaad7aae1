/**
 * What every part of the .docx reader shares: the package and its parts read once (styles,
 * numbering, theme, relationships, notes), and the state that runs through the document in order
 * (list counters, note numbers, endnotes, the table cell being read).
 */
import type JSZip from 'jszip';
import type { Block, Inline } from '../model.ts';
import { attr, find, kid, kids, parseXml, readRels, zipText, type XmlElement } from '../xml.ts';
import { chartReader, smartArtReader } from '../graphics.ts';
import { readDrawingTheme, type DrawingTheme } from '../shapes.ts';
import { readStyles, onOff, type DocxStyles, type ThemeFonts } from './styles.ts';
import { readNumbering, type Numbering } from './numbering.ts';
import { readNotesPart, type NotesPart } from './notes.ts';
import type { SpacingRule } from './paragraph.ts';

export type Rels = Awaited<ReturnType<typeof readRels>>;

/** Turns a chart or SmartArt frame into an inline of width × height points (undefined: none drawn). */
type FrameReader = (frame: XmlElement, rels: Rels, width: number, height: number) => Promise<Inline | undefined>;

/** Formatting a table style gives the text of one cell: run and paragraph properties, in order. */
export interface CellTextStyle {
  rPr: XmlElement[];
  pPr: XmlElement[];
}

export interface DocxContext {
  zip: JSZip;
  /** Things the renderer left out (e.g. "images in EMF format were left out"), shown to the user. */
  notes: Set<string>;
  styles: DocxStyles;
  numbering: Numbering;
  drawingTheme: DrawingTheme;
  /** The relationships of word/document.xml. */
  rels: Rels;
  /** w:evenAndOddHeaders in word/settings.xml: even pages have their own header and footer. */
  evenAndOddHeaders: boolean;
  /**
   * The Word version the document is laid out for (w:compatSetting "compatibilityMode": 14 is Word
   * 2010, 15 Word 2013 and later; 12 when the settings do not say, as Word reads them).
   */
  compatibilityMode: number;
  /**
   * The space between two paragraphs: the larger of the first's after and the second's before, or
   * their sum (w:doNotUseHTMLParagraphAutoSpacing; no settings part). See ParagraphSpacing.
   */
  paragraphSpacing: SpacingRule;
  /** w:gutterAtTop in the settings: the pages' gutter widens the top margin instead of a side one. */
  gutterAtTop: boolean;
  /** w:mirrorMargins in the settings: facing pages, the left margin (and gutter) on the inside. */
  mirrorMargins: boolean;
  footnotes: NotesPart;
  endnotes: NotesPart;
  /** The number format of footnote and endnote marks (w:footnotePr / w:endnotePr in the settings). */
  noteFormat: Record<'footnote' | 'endnote', string>;
  readChart: FrameReader;
  readSmartArt: FrameReader;
  /** Image bytes by part path, read once however often the picture is used. */
  imageCache: Map<string, Uint8Array>;
  /** How many footnotes and endnotes have been referenced so far. */
  noteCount: { footnote: number; endnote: number };
  /** The number (mark) of the note being read, for its w:footnoteRef / w:endnoteRef. */
  currentNoteMark: string;
  /** Endnotes in the order they are referenced: printed after the last section's text. */
  endnoteBlocks: Block[];
  /** The table style's formatting for the text of the cell being read (undefined outside tables). */
  cellTextStyle?: CellTextStyle;
}

const THEME_PATH = 'word/theme/theme1.xml';

function themeFontsOf(theme: XmlElement | undefined): ThemeFonts {
  const fonts = { minor: 'Calibri', major: 'Calibri Light' };
  if (!theme) return fonts;
  fonts.minor = attr(find(find(theme, 'a:minorFont'), 'a:latin'), 'typeface') ?? fonts.minor;
  fonts.major = attr(find(find(theme, 'a:majorFont'), 'a:latin'), 'typeface') ?? fonts.major;
  return fonts;
}

/** Reads the parts the document body depends on. */
function compatibilityMode(settings: XmlElement | undefined): number {
  const setting = kids(kid(settings, 'w:compat'), 'w:compatSetting').find(
    (el) => attr(el, 'w:name') === 'compatibilityMode',
  );
  return Number(attr(setting, 'w:val')) || 12;
}

/**
 * Word 2000 and later give two paragraphs the larger of their spacings (ISO/IEC 29500-1 §17.3.1.33);
 * w:doNotUseHTMLParagraphAutoSpacing asks for the sum, as before. LibreOffice also adds them when
 * the document has no settings part at all.
 */
function paragraphSpacingRule(settings: XmlElement | undefined): SpacingRule {
  if (!settings || onOff(kid(kid(settings, 'w:compat'), 'w:doNotUseHTMLParagraphAutoSpacing'))) return 'sum';
  return 'larger';
}

export async function createDocxContext(zip: JSZip, documentPath: string): Promise<DocxContext> {
  const notes = new Set<string>();
  const themeXml = await zipText(zip, THEME_PATH);
  const theme = themeXml ? parseXml(themeXml) : undefined;
  const styles = readStyles(await zipText(zip, 'word/styles.xml'), themeFontsOf(theme));
  const numbering = readNumbering(await zipText(zip, 'word/numbering.xml'));
  const rels = await readRels(zip, documentPath);
  const settingsXml = await zipText(zip, 'word/settings.xml');
  const settings = settingsXml ? parseXml(settingsXml) : undefined;
  const noteFormat = (kind: 'footnote' | 'endnote') =>
    attr(kid(kid(settings, `w:${kind}Pr`), 'w:numFmt'), 'w:val') ?? (kind === 'footnote' ? 'decimal' : 'lowerRoman');
  return {
    zip,
    notes,
    styles,
    numbering,
    drawingTheme: readDrawingTheme(theme),
    rels,
    evenAndOddHeaders: onOff(kid(settings, 'w:evenAndOddHeaders')) ?? false,
    compatibilityMode: compatibilityMode(settings),
    paragraphSpacing: paragraphSpacingRule(settings),
    gutterAtTop: onOff(kid(settings, 'w:gutterAtTop')) ?? false,
    mirrorMargins: onOff(kid(settings, 'w:mirrorMargins')) ?? false,
    footnotes: await readNotesPart(zip, rels, 'footnote'),
    endnotes: await readNotesPart(zip, rels, 'endnote'),
    noteFormat: { footnote: noteFormat('footnote'), endnote: noteFormat('endnote') },
    readChart: chartReader(zip, THEME_PATH, notes),
    readSmartArt: smartArtReader(zip, THEME_PATH, notes),
    imageCache: new Map(),
    noteCount: { footnote: 0, endnote: 0 },
    currentNoteMark: '',
    endnoteBlocks: [],
  };
}

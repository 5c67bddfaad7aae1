/**
 * The content of a paragraph: runs with their formatting, hyperlinks (w:hyperlink and HYPERLINK
 * fields), PAGE / NUMPAGES fields, tabs and breaks, symbols, note references, drawings and bookmarks,
 * collected in order as pieces of the paragraph.
 */
import { rgb } from 'pdf-lib';
import type { NumberStyle } from '../list-numbers.ts';
import { smallCapitals, type Block, type FloatingDrawing, type Inline, type RunStyle } from '../model.ts';
import { attr, find, kid, kids, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import { readDrawing, readVml, readVmlTextBox } from './drawings.ts';
import { readNoteReference } from './notes.ts';
import { readVmlPositioned } from './watermarks.ts';
import { rubyGuide } from './ruby.ts';
import { bulletText } from './numbering.ts';
import { displayAlign, readMath } from './math.ts';
import { mathInline } from '../math.ts';
import { symbolFontChar, symbolFontOf, symbolFontText } from '../symbol-fonts.ts';
import { complexScriptPieces, readRunProps, styleRunProps, toStyle, type RunProps } from './styles.ts';

/** What a paragraph's runs give: inlines, and page breaks that will split the paragraph. */
export type Piece = Inline | { kind: 'pageBreakMark' };

/** One paragraph being read: what its runs add so far, and the field or hyperlink they are inside. */
export interface RunReader {
  ctx: DocxContext;
  partRels: Rels;
  /** The paragraph's run properties, which each run's own formatting overrides. */
  paraRun: RunProps;
  pieces: Piece[];
  floats: FloatingDrawing[];
  footnotes: Block[][];
  /** Bookmark names in the paragraph (targets of internal links). */
  anchors: string[];
  fieldDepth: number;
  fieldInstr: string;
  fieldShowsResult: boolean;
  /** A display equation's alignment (m:oMathPara): the paragraph's, when it holds one. */
  mathAlign?: 'left' | 'center' | 'right';
  /** The web address of the hyperlink (w:hyperlink or a HYPERLINK field) being read. */
  link?: string;
  fieldLink: boolean;
}

export function runReader(ctx: DocxContext, partRels: Rels, paraRun: RunProps): RunReader {
  return {
    ctx,
    partRels,
    paraRun,
    pieces: [],
    floats: [],
    footnotes: [],
    anchors: [],
    fieldDepth: 0,
    fieldInstr: '',
    fieldShowsResult: true,
    fieldLink: false,
  };
}

/** The runs of a paragraph or of an element that groups runs (hyperlinks, content controls…). */
export async function readRuns(reader: RunReader, container: XmlElement): Promise<void> {
  const { ctx, partRels } = reader;
  for (const child of kids(container)) {
    switch (child.nodeName) {
      case 'w:r':
        await readRun(reader, child);
        break;
      case 'w:hyperlink': {
        const rel = partRels.get(attr(child, 'r:id') ?? '');
        const outer = reader.link;
        const bookmark = attr(child, 'w:anchor');
        if (rel?.external) reader.link = rel.target + (bookmark ? `#${bookmark}` : '');
        else if (bookmark) reader.link = `#${bookmark}`; // a place in the document (a table of contents entry)
        await readRuns(reader, child);
        reader.link = outer;
        break;
      }
      case 'w:ins':
      case 'w:moveTo': // text moved here by a tracked change: part of the document as it now reads
      case 'w:smartTag':
      case 'w:customXml':
      case 'w:dir':
      case 'w:bdo':
        await readRuns(reader, child);
        break;
      case 'w:sdt':
        await readRuns(reader, kid(child, 'w:sdtContent') ?? child);
        break;
      case 'w:fldSimple': {
        const instr = (attr(child, 'w:instr') ?? '').trim().split(/\s+/)[0]?.toUpperCase();
        if (instr === 'PAGE' || instr === 'NUMPAGES') {
          const rPr = kid(find(child, 'w:r'), 'w:rPr');
          const props = styleRunProps(ctx.styles, attr(kid(rPr, 'w:rStyle'), 'w:val'), { ...reader.paraRun });
          reader.pieces.push({
            kind: 'field',
            field: instr,
            style: toStyle(readRunProps(rPr, props, ctx.styles.themeFonts)),
            format: fieldNumberFormat(attr(child, 'w:instr') ?? ''),
          });
        } else await readRuns(reader, child);
        break;
      }
      case 'm:oMath':
        reader.pieces.push(mathInline(readMath(child), mathStyle(reader, child)));
        break;
      case 'm:oMathPara':
        // A display equation: on a line of its own, centred unless it says otherwise.
        reader.mathAlign = displayAlign(child);
        for (const oMath of kids(child, 'm:oMath')) {
          if (reader.pieces.some((piece) => piece.kind === 'measured'))
            reader.pieces.push({ kind: 'break', style: toStyle(reader.paraRun) });
          reader.pieces.push(mathInline(readMath(oMath), mathStyle(reader, oMath)));
        }
        break;
      case 'w:bookmarkStart': {
        const name = attr(child, 'w:name');
        if (name && name !== '_GoBack') reader.anchors.push(name);
        break;
      }
      default:
        break; // bookmark ends, proofing marks, deletions (w:del), comments
    }
  }
}

/** A field's number format switch (PAGE \* roman, \* ALPHABETIC, \* Arabic); others (MERGEFORMAT…) say nothing. */
function fieldNumberFormat(instr: string): NumberStyle | undefined {
  for (const [, word] of instr.matchAll(/\\\*\s*(\w+)/g)) {
    const upper = word[0] === word[0].toUpperCase();
    if (/^roman$/i.test(word)) return upper ? 'upperRoman' : 'lowerRoman';
    if (/^alphabetic$/i.test(word)) return upper ? 'upperLetter' : 'lowerLetter';
    if (/^arabic$/i.test(word)) return 'decimal';
  }
  return undefined;
}

/**
 * A complex field's w:fldChar: PAGE and NUMPAGES become page-number fields (their cached result is
 * skipped), and a HYPERLINK field's result is the link's text.
 */
function fieldChar(reader: RunReader, fldChar: XmlElement, style: RunStyle): void {
  const type = attr(fldChar, 'w:fldCharType');
  if (type === 'begin') {
    reader.fieldDepth++;
    reader.fieldInstr = '';
    reader.fieldShowsResult = true;
    const formField = formFieldPiece(kid(fldChar, 'w:ffData'), style);
    if (formField) reader.pieces.push(formField);
  } else if (type === 'separate') {
    const instr = reader.fieldInstr.trim().split(/\s+/)[0]?.toUpperCase();
    if (reader.fieldDepth === 1 && (instr === 'PAGE' || instr === 'NUMPAGES')) {
      reader.pieces.push({ kind: 'field', field: instr, style, format: fieldNumberFormat(reader.fieldInstr) });
      reader.fieldShowsResult = false;
    }
    const bookmark = /\\l\s+"([^"]+)"/.exec(reader.fieldInstr)?.[1];
    const address =
      instr !== 'HYPERLINK'
        ? undefined
        : bookmark
          ? `#${bookmark}`
          : /HYPERLINK\s+"([^"]+)"/i.exec(reader.fieldInstr)?.[1];
    if (reader.fieldDepth === 1 && address && !reader.link) {
      reader.link = address;
      reader.fieldLink = true;
    }
  } else if (type === 'end') {
    reader.fieldDepth = Math.max(0, reader.fieldDepth - 1);
    reader.fieldShowsResult = true;
    if (reader.fieldDepth === 0 && reader.fieldLink) {
      reader.link = undefined;
      reader.fieldLink = false;
    }
  }
}

/** An equation's size and colour: its first run's (w:rPr inside m:r), over the paragraph's; Cambria Math. */
function mathStyle(reader: RunReader, oMath: XmlElement): RunStyle {
  const { styles } = reader.ctx;
  const rPr = kid(find(oMath, 'm:r'), 'w:rPr');
  const props = readRunProps(rPr, { ...reader.paraRun }, styles.themeFonts);
  return { ...toStyle(props), font: 'Cambria Math' };
}

/**
 * A legacy form field's look, which its field has no result for (Developer › Legacy Tools): a check
 * box (FORMCHECKBOX) is a square as tall as the text (or its w:size), crossed when checked; a
 * drop-down (FORMDROPDOWN) shows its chosen entry. Text fields (FORMTEXT) show their result as any field.
 */
function formFieldPiece(ffData: XmlElement | undefined, style: RunStyle): Inline | undefined {
  const checkBox = kid(ffData, 'w:checkBox');
  if (checkBox) {
    const on = (el: XmlElement | undefined) =>
      el !== undefined && !['0', 'false', 'off'].includes(attr(el, 'w:val') ?? '');
    const checked = kid(checkBox, 'w:checked') ? on(kid(checkBox, 'w:checked')) : on(kid(checkBox, 'w:default'));
    // w:size in half-points, kept to what a page can hold (a hostile file's 10^9).
    const size = kid(checkBox, 'w:sizeAuto')
      ? style.size
      : Math.min(400, (Number(attr(kid(checkBox, 'w:size'), 'w:val')) || style.size * 2) / 2);
    return checkBoxInline(size, checked, style.color);
  }
  const list = kid(ffData, 'w:ddList');
  if (list) {
    const entries = kids(list, 'w:listEntry').map((entry) => attr(entry, 'w:val') ?? '');
    const chosen = Number(attr(kid(list, 'w:result'), 'w:val') ?? attr(kid(list, 'w:default'), 'w:val') ?? 0);
    const text = entries[chosen] ?? entries[0];
    return text ? { kind: 'text', text, style } : undefined;
  }
  return undefined;
}

/**
 * A check box for text `size` points tall, as Word and LibreOffice draw it: a thin square about the
 * text's height, reaching a little below the baseline, an X in it when checked.
 */
function checkBoxInline(size: number, checked: boolean, color: RunStyle['color']): Inline {
  const side = size * 0.95;
  const below = size * 0.15;
  const ink = rgb(...(color ?? [0, 0, 0]));
  return {
    kind: 'drawing',
    width: side + size * 0.15,
    height: side - below,
    depth: below,
    prepare: async () => (page, x, bottom) => {
      const line = Math.max(0.5, size / 20);
      const box = { x: x + size * 0.075 + line / 2, y: bottom - below + line / 2, side: side - line };
      page.drawRectangle({
        x: box.x,
        y: box.y,
        width: box.side,
        height: box.side,
        borderColor: ink,
        borderWidth: line,
      });
      if (!checked) return;
      const [x1, y1, x2, y2] = [box.x, box.y, box.x + box.side, box.y + box.side];
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: line, color: ink });
      page.drawLine({ start: { x: x1, y: y2 }, end: { x: x2, y: y1 }, thickness: line, color: ink });
    },
  };
}

async function addDrawing(reader: RunReader, drawing: XmlElement): Promise<void> {
  const result = await readDrawing(reader.ctx, drawing, reader.partRels);
  if (result && 'float' in result) reader.floats.push(result.float);
  else if (result) reader.pieces.push(result.inline);
}

/** An embedded object (w:object: a worksheet, an equation…) as its preview picture, as Word prints it. */
async function addEmbeddedObject(reader: RunReader, object: XmlElement): Promise<void> {
  const preview = find(object, 'v:imagedata') ? await readVml(reader.ctx, object, reader.partRels) : undefined;
  if (!preview) reader.ctx.notes.add('embedded objects without a preview picture were left out');
  if (preview) reader.pieces.push(preview);
}

async function addVml(reader: RunReader, pict: XmlElement): Promise<void> {
  const textBox = await readVmlTextBox(reader.ctx, pict, reader.partRels);
  if (textBox && 'float' in textBox) return void reader.floats.push(textBox.float);
  if (textBox) return void reader.pieces.push(textBox.inline);
  // A watermark, or a picture placed on the page: floating, not in the line.
  const positioned = await readVmlPositioned(reader.ctx, pict, reader.partRels);
  if (positioned && 'float' in positioned) return void reader.floats.push(positioned.float);
  const inline = await readVml(reader.ctx, pict, reader.partRels);
  if (inline) reader.pieces.push(inline);
}

/** East Asian phonetic guides: the base text in the line, the guide (w:rt) drawn centred above it. */
async function addRuby(reader: RunReader, ruby: XmlElement): Promise<void> {
  const guideReader = runReader(reader.ctx, reader.partRels, reader.paraRun);
  await readRuns(guideReader, kid(ruby, 'w:rt') ?? ruby);
  const start = reader.pieces.length;
  await readRuns(reader, kid(ruby, 'w:rubyBase') ?? ruby);
  const texts = (pieces: Piece[]) =>
    pieces.filter((piece): piece is Extract<Inline, { kind: 'text' }> => piece.kind === 'text' && piece.text !== '');
  const align = attr(kid(kid(ruby, 'w:rubyPr'), 'w:rubyAlign'), 'w:val');
  const guide = rubyGuide(texts(guideReader.pieces), texts(reader.pieces.slice(start)), align);
  if (guide) reader.pieces.splice(start, 0, guide);
}

/** One piece of a run's content (text, tab, break, symbol, note reference, drawing). */
async function runContent(reader: RunReader, child: XmlElement, props: RunProps, style: RunStyle): Promise<void> {
  const { pieces } = reader;
  switch (child.nodeName) {
    case 'w:t': {
      const symbolFont = symbolFontOf(props.font);
      const text = symbolFont ? symbolFontText(child.textContent ?? '', symbolFont) : (child.textContent ?? '');
      // A tab character typed into the text (some writers do) is a tab stop, as w:tab is.
      text.split('\t').forEach((part, index) => {
        if (index > 0) pieces.push({ kind: 'tab', style });
        if (part)
          for (const [piece, look] of complexScriptPieces(part, props, style))
            if (props.caps) pieces.push({ kind: 'text', text: piece.toUpperCase(), style: look });
            else if (props.smallCaps)
              for (const small of smallCapitals(piece, look)) pieces.push({ kind: 'text', ...small });
            else pieces.push({ kind: 'text', text: piece, style: look });
      });
      break;
    }
    case 'w:tab':
      pieces.push({ kind: 'tab', style });
      break;
    case 'w:ptab': {
      // An absolute tab (headers' left, centre and right parts) to a place in the text column.
      const alignment = attr(child, 'w:alignment');
      pieces.push({
        kind: 'tab',
        style,
        positional: alignment === 'center' || alignment === 'right' ? alignment : 'left',
      });
      break;
    }
    case 'w:br':
    case 'w:cr':
      if (attr(child, 'w:type') === 'page') pieces.push({ kind: 'pageBreakMark' });
      else pieces.push({ kind: 'break', style });
      break;
    case 'w:noBreakHyphen':
      pieces.push({ kind: 'text', text: '‑', style });
      break;
    case 'w:sym': {
      // Insert › Symbol: a code of the font named (Symbol's F061 is α), not a bullet.
      const code = parseInt(attr(child, 'w:char') ?? '', 16);
      const font = symbolFontOf(attr(child, 'w:font'));
      const char = Number.isFinite(code) ? String.fromCharCode(code) : undefined;
      if (char) pieces.push({ kind: 'text', text: (font && symbolFontChar(char, font)) ?? bulletText(char), style });
      break;
    }
    case 'w:footnoteReference':
    case 'w:endnoteReference': {
      // The note's number as a superscript mark here; its text at the page's foot (or after the document).
      const { mark, footnote } = await readNoteReference(reader.ctx, child, style);
      if (mark) pieces.push(mark);
      if (footnote) reader.footnotes.push(footnote);
      break;
    }
    case 'w:ruby':
      await addRuby(reader, child);
      break;
    case 'w:footnoteRef':
    case 'w:endnoteRef':
      if (reader.ctx.currentNoteMark) {
        pieces.push({ kind: 'text', text: reader.ctx.currentNoteMark, style: { ...style, baseline: 'super' } });
      }
      break;
    case 'w:drawing':
      await addDrawing(reader, child);
      break;
    case 'mc:AlternateContent': {
      // Word shapes and text boxes (wps, wpg) come with a VML fallback: the DrawingML choice is drawn.
      const drawing = kids(child, 'mc:Choice')
        .map((choice) => kid(choice, 'w:drawing'))
        .find(Boolean);
      if (drawing) await addDrawing(reader, drawing);
      else if (find(child, 'w:pict')) await addVml(reader, find(child, 'w:pict')!);
      break;
    }
    case 'w:pict':
      await addVml(reader, child);
      break;
    case 'w:object':
      await addEmbeddedObject(reader, child);
      break;
    default:
      break;
  }
}

async function readRun(reader: RunReader, r: XmlElement): Promise<void> {
  const { styles } = reader.ctx;
  const rPr = kid(r, 'w:rPr');
  const props = readRunProps(
    rPr,
    styleRunProps(styles, attr(kid(rPr, 'w:rStyle'), 'w:val'), { ...reader.paraRun }),
    styles.themeFonts,
  );
  if (props.hidden) return;
  const style: RunStyle = { ...toStyle(props), link: reader.link };
  for (const child of kids(r)) {
    if (child.nodeName === 'w:fldChar') fieldChar(reader, child, style);
    else if (child.nodeName === 'w:instrText') reader.fieldInstr += child.textContent ?? '';
    else if (reader.fieldDepth > 0 && !reader.fieldShowsResult) continue;
    else if (
      reader.fieldDepth > 0 &&
      child.nodeName === 'w:t' &&
      reader.fieldInstr &&
      !/\S/.test(child.textContent ?? '')
    )
      continue;
    else await runContent(reader, child, props, style);
  }
}

/**
 * Arabic (and other right-to-left) words drawn with their glyph positions. pdf-lib draws a string's
 * glyphs one after the other at their advance widths and drops the font's positioning (GPOS). Noto
 * Sans Arabic builds a joined letter from a dotless form and separate dots that GPOS places ("mark"):
 * without the positions the dots land beside their letters. Here every glyph is placed where fontkit's
 * layout puts it, and the word is drawn in a marked-content span whose ActualText is the word's characters,
 * because the dotless forms are shared (one glyph for teh, yeh, beh, noon…) and a ToUnicode map can
 * name only one of those letters per glyph: text extraction then reads the word, not its glyphs.
 */
import {
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type Color,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';

interface GlyphPosition {
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

interface FontkitFace {
  unitsPerEm: number;
  layout(text: string, features?: unknown): { glyphs: unknown[]; positions: GlyphPosition[] };
}

/** The fontkit font behind a PDFFont embedded from font bytes (undefined for the standard 14 fonts). */
function faceOf(font: PDFFont): { face: FontkitFace; features: unknown } | undefined {
  const embedder = (font as unknown as { embedder?: { font?: FontkitFace; fontFeatures?: unknown } }).embedder;
  return embedder?.font?.layout ? { face: embedder.font, features: embedder.fontFeatures } : undefined;
}

/** Width of a shaped text at a size: the sum of the positioned advances (kerning and cursive joins included). */
export function shapedWidth(font: PDFFont, text: string, size: number): number | undefined {
  const shaped = faceOf(font);
  if (!shaped) return undefined;
  const { positions } = shaped.face.layout(text, shaped.features);
  return (positions.reduce((sum, p) => sum + p.xAdvance, 0) * size) / shaped.face.unitsPerEm;
}

/**
 * Draws `text` (an Arabic or Hebrew word in logical order: fontkit shapes it and returns the glyphs in
 * visual order) with its left edge at x on the baseline y, each glyph at its GPOS position. The
 * ActualText is by default the word in visual order, as the glyphs are: readers (poppler, pdf.js)
 * reverse the right-to-left text they extract. Mirrored brackets pass their own characters.
 */
export function drawShaped(
  page: PDFPage,
  text: string,
  font: PDFFont,
  size: number,
  x: number,
  y: number,
  color: Color,
  // Every character reversed, marks included: readers reverse the extracted text character by character.
  actualText = [...text].reverse().join(''),
): void {
  const shaped = faceOf(font);
  const encoded = font.encodeText(text).toString().slice(1, -1);
  if (!shaped || !encoded) return;
  const { positions } = shaped.face.layout(text, shaped.features);
  const codes = encoded.match(/.{4}/g) ?? [];
  const scale = size / shaped.face.unitsPerEm;
  const key = page.node.newFontDictionary(font.name, font.ref);
  const actual = page.doc.context.obj({ ActualText: PDFHexString.fromText(actualText) });
  const operators: PDFOperator[] = [
    pushGraphicsState(),
    beginText(),
    setFillingColor(color),
    setFontAndSize(key, size),
    // pdf-lib's operand type leaves dictionaries out; an inline dictionary is what BDC takes.
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), actual as unknown as PDFName]),
  ];
  let pen = x;
  codes.forEach((code, i) => {
    const p = positions[i] ?? { xAdvance: 0, xOffset: 0, yOffset: 0 };
    operators.push(
      setTextMatrix(1, 0, 0, 1, pen + p.xOffset * scale, y + p.yOffset * scale),
      showText(PDFHexString.of(code)),
    );
    pen += p.xAdvance * scale;
  });
  operators.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent), endText(), popGraphicsState());
  page.pushOperators(...operators);
}

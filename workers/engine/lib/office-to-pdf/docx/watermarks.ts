/**
 * Word's watermarks and other positioned VML (w:pict in a header, from Design › Watermark and older
 * Word files): a text watermark is a VML WordArt shape (v:shape with v:textpath string="DRAFT") whose
 * letters are stretched to the shape's box, rotated, in a faint fill; a picture watermark is a
 * v:imagedata, washed out. Both float where the shape's style puts them (centred on the margins for
 * Word's own), behind the text, on every page the header is drawn on.
 */
import { concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb, type PDFFont } from 'pdf-lib';
import type { DrawingInline, FloatingDrawing, Rgb } from '../model.ts';
import { attr, find, hexColor, imageMime, kid, kids, type XmlElement } from '../xml.ts';
import type { DocxContext, Rels } from './context.ts';
import type { DrawingResult } from './drawings.ts';
import { cssLength, vmlStyle } from './drawings.ts';

/** VML's named colours (the HTML 4 set, which Word writes for its watermark palette: "silver"). */
const NAMED_COLORS: Record<string, string> = {
  black: '000000',
  silver: 'c0c0c0',
  gray: '808080',
  grey: '808080',
  white: 'ffffff',
  maroon: '800000',
  red: 'ff0000',
  purple: '800080',
  fuchsia: 'ff00ff',
  green: '008000',
  lime: '00ff00',
  olive: '808000',
  yellow: 'ffff00',
  navy: '000080',
  blue: '0000ff',
  teal: '008080',
  aqua: '00ffff',
};

/** A VML colour: "#c0c0c0", "#ccc", "silver", "#d8d8d8 [2732]" (a theme index after the colour). */
export function vmlColor(value: string | undefined): Rgb | undefined {
  const token = value?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!token) return undefined;
  const hex = token.startsWith('#') ? token.slice(1) : NAMED_COLORS[token];
  if (hex && /^[0-9a-f]{3}$/.test(hex)) return hexColor(hex.replace(/./g, (c) => c + c));
  return hexColor(hex);
}

/** A VML fraction: ".5", "50%", or 16.16 fixed point ("32768f"). */
function vmlFraction(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const n = parseFloat(text);
  if (!Number.isFinite(n)) return undefined;
  if (text.endsWith('f')) return n / 65536;
  if (text.endsWith('%')) return n / 100;
  return n;
}

/**
 * Where an absolutely positioned VML shape floats: mso-position-horizontal / -vertical (an
 * alignment) or margin-left / margin-top (an offset), relative to what mso-position-*-relative names
 * (VML's defaults: the text column and the paragraph).
 */
function vmlPlace(css: Record<string, string>): Pick<FloatingDrawing, 'horizontal' | 'vertical'> {
  const hRelative = css['mso-position-horizontal-relative'];
  const vRelative = css['mso-position-vertical-relative'];
  const hAlign = css['mso-position-horizontal'];
  const vAlign = css['mso-position-vertical'];
  return {
    horizontal: {
      from:
        hRelative === 'page'
          ? 'page'
          : hRelative === 'left-margin-area' || hRelative === 'inner-margin-area'
            ? 'leftMargin'
            : hRelative === 'right-margin-area' || hRelative === 'outer-margin-area'
              ? 'rightMargin'
              : 'margin',
      offset: cssLength(css['margin-left'] ?? css.left) ?? 0,
      align:
        hAlign === 'center'
          ? 'center'
          : hAlign === 'right' || hAlign === 'outside'
            ? 'right'
            : hAlign === 'left' || hAlign === 'inside'
              ? 'left'
              : undefined,
    },
    vertical: {
      from:
        vRelative === 'page'
          ? 'page'
          : vRelative === 'margin'
            ? 'margin'
            : vRelative === 'top-margin-area'
              ? 'topMargin'
              : vRelative === 'bottom-margin-area'
                ? 'bottomMargin'
                : 'paragraph',
      offset: cssLength(css['margin-top'] ?? css.top) ?? 0,
      align:
        vAlign === 'center'
          ? 'center'
          : vAlign === 'bottom' || vAlign === 'outside'
            ? 'bottom'
            : vAlign === 'top' || vAlign === 'inside'
              ? 'top'
              : undefined,
    },
  };
}

interface FontkitPath {
  toSVG(): string;
}
interface FontkitFace {
  unitsPerEm: number;
  layout(text: string): {
    glyphs: Array<{ path: FontkitPath }>;
    positions: Array<{ xAdvance: number; xOffset: number; yOffset: number }>;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
  };
}

/** The fontkit face behind a font embedded from its bytes (undefined for the standard 14 fonts). */
function faceOf(font: PDFFont): FontkitFace | undefined {
  const face = (font as unknown as { embedder?: { font?: FontkitFace } }).embedder?.font;
  return face?.layout ? face : undefined;
}

/** A text's glyph outlines as SVG path data in em units (y up), one per glyph, and the ink's box. */
interface Outlines {
  glyphs: Array<{ path: string; x: number; y: number; scale: number }>;
  ink: { minX: number; minY: number; maxX: number; maxY: number };
}

function outlinesOf(spans: Array<{ text: string; font: PDFFont }>): Outlines | undefined {
  const glyphs: Outlines['glyphs'] = [];
  const ink = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  let pen = 0;
  for (const span of spans) {
    const face = faceOf(span.font);
    if (!face) continue;
    const run = face.layout(span.text);
    const em = face.unitsPerEm;
    run.glyphs.forEach((glyph, i) => {
      const p = run.positions[i];
      glyphs.push({ path: glyph.path.toSVG(), x: pen + p.xOffset / em, y: p.yOffset / em, scale: 1 / em });
      pen += p.xAdvance / em;
    });
    if (run.bbox.maxX > run.bbox.minX) {
      const start = pen - run.positions.reduce((sum, p) => sum + p.xAdvance, 0) / em;
      ink.minX = Math.min(ink.minX, start + run.bbox.minX / em);
      ink.maxX = Math.max(ink.maxX, start + run.bbox.maxX / em);
      ink.minY = Math.min(ink.minY, run.bbox.minY / em);
      ink.maxY = Math.max(ink.maxY, run.bbox.maxY / em);
    }
  }
  return glyphs.length && ink.maxX > ink.minX && ink.maxY > ink.minY ? { glyphs, ink } : undefined;
}

/**
 * VML WordArt (a shape whose v:textpath is on, Word's text watermark): the text's letters stretched
 * to fill the shape's box ("fitshape", as Word draws it: the box hugs the letters), rotated about the
 * box's centre (VML's rotation is clockwise), in the fill colour and opacity. The letters are drawn
 * as outlines, as LibreOffice draws them: the watermark is not read into the page's text.
 */
function textPathDrawing(shape: XmlElement, textPath: XmlElement, width: number, height: number): DrawingInline {
  const text = (attr(textPath, 'string') ?? '').replace(/\s+/g, ' ').trim();
  const pathCss = vmlStyle(textPath);
  const family = pathCss['font-family']?.replace(/^["']|["']$/g, '').trim();
  const fill = kid(shape, 'v:fill');
  const color = vmlColor(attr(fill, 'color') ?? attr(shape, 'fillcolor')) ?? [1, 1, 1];
  const opacity = Math.min(1, Math.max(0, vmlFraction(attr(fill, 'opacity') ?? attr(shape, 'o:opacity')) ?? 1));
  const rotation = ((Number.parseFloat(vmlStyle(shape).rotation ?? '0') || 0) * Math.PI) / 180;
  return {
    kind: 'drawing',
    width,
    height,
    prepare: async (ctx, boxWidth, boxHeight) => {
      const spans = await ctx.fonts.spans(text, {
        family,
        bold: /bold|[6-9]00/.test(pathCss['font-weight'] ?? ''),
        italic: pathCss['font-style'] === 'italic',
      });
      const outlines = outlinesOf(spans);
      if (!outlines) return () => {};
      const { ink } = outlines;
      const [sx, sy] = [boxWidth / (ink.maxX - ink.minX), boxHeight / (ink.maxY - ink.minY)];
      const [cos, sin] = [Math.cos(rotation), Math.sin(rotation)];
      return (page, x, bottom) => {
        const [cx, cy] = [x + boxWidth / 2, bottom + boxHeight / 2];
        const [mx, my] = [(ink.minX + ink.maxX) / 2, (ink.minY + ink.maxY) / 2];
        // Page ← box centre, turned clockwise, letters stretched, ink centred; then y flipped back,
        // because pdf-lib draws SVG path data (y down) upside down.
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(cos, -sin, sin, cos, cx, cy),
          concatTransformationMatrix(sx, 0, 0, sy, -mx * sx, -my * sy),
          concatTransformationMatrix(1, 0, 0, -1, 0, 0),
        );
        for (const glyph of outlines.glyphs)
          page.drawSvgPath(glyph.path, {
            x: glyph.x,
            y: -glyph.y,
            scale: glyph.scale,
            color: rgb(...color),
            opacity,
          });
        page.pushOperators(popGraphicsState());
      };
    },
  };
}

/**
 * A picture's washout (Word's Picture › Color › Washout, which picture watermarks use: v:imagedata
 * gain 19661f and blacklevel 22938f) as the share of white laid over it. LibreOffice 7.4 prints
 * Word's washout with black as 85 % white (216 of 255) and white as white, which a white veil of
 * 0.85 gives; another lowered contrast (gain below 1) is veiled by as much as it is lowered.
 */
function washout(imageData: XmlElement | undefined): number {
  const gain = vmlFraction(attr(imageData, 'gain')) ?? 1;
  const black = vmlFraction(attr(imageData, 'blacklevel')) ?? 0;
  if (gain < 0.5 && black > 0.25) return 0.85;
  return Math.min(0.95, Math.max(0, 1 - gain));
}

/** A VML picture (v:imagedata) drawn at the box's size, under a white veil when washed out. */
async function pictureDrawing(
  ctx: DocxContext,
  imageData: XmlElement,
  partRels: Rels,
  width: number,
  height: number,
): Promise<DrawingInline | undefined> {
  const rel = partRels.get(attr(imageData, 'r:id') ?? '');
  const mime = rel ? imageMime(rel.target) : undefined;
  const file = rel && mime ? ctx.zip.file(rel.target) : undefined;
  if (!file || !mime) return undefined;
  const bytes = await file.async('uint8array');
  const veil = washout(imageData);
  return {
    kind: 'drawing',
    width,
    height,
    prepare: async (textCtx, w, h) => {
      const image = await textCtx.images.get(bytes, mime);
      return (page, x, bottom) => {
        page.drawImage(image, { x, y: bottom, width: w, height: h });
        // (Half a point wider all round: renderers cover a picture's edge pixels more generously than a fill's.)
        const veilBox = { x: x - 0.5, y: bottom - 0.5, width: w + 1, height: h + 1 };
        if (veil > 0) page.drawRectangle({ ...veilBox, color: rgb(1, 1, 1), opacity: veil });
      };
    },
  };
}

/**
 * An absolutely positioned VML shape that is WordArt (a text watermark) or a picture (a picture
 * watermark, a logo in a header) behind the text or in front of it without wrapping, floating where
 * its style puts it; undefined for anything else.
 */
export async function readVmlPositioned(ctx: DocxContext, pict: XmlElement, partRels: Rels): Promise<DrawingResult> {
  const shape = kids(pict).find((el) => ['v:shape', 'v:rect', 'v:image'].includes(el.nodeName));
  const css = vmlStyle(shape);
  if (!shape || css.position !== 'absolute' || css.visibility === 'hidden') return undefined;
  // Text wraps around a shape in front of it that has a w10:wrap (square, top and bottom…): such a
  // picture stays in the line, taking its room, as before (floats text wraps around are DrawingML's).
  const behind = (Number(css['z-index']) || 0) < 0;
  const wrap = attr(kid(shape, 'w10:wrap'), 'type');
  if (!behind && wrap && wrap !== 'none') return undefined;
  const [width, height] = [cssLength(css.width) ?? 0, cssLength(css.height) ?? 0];
  if (!(width > 0 && height > 0)) return undefined;
  const textPath = kid(shape, 'v:textpath');
  const imageData = find(shape, 'v:imagedata');
  const drawing =
    textPath && attr(textPath, 'string')?.trim()
      ? textPathDrawing(shape, textPath, width, height)
      : imageData
        ? await pictureDrawing(ctx, imageData, partRels, width, height)
        : undefined;
  if (!drawing) return undefined;
  return { float: { drawing, behind, wrap: { kind: 'none', distance: 0 }, ...vmlPlace(css) } };
}

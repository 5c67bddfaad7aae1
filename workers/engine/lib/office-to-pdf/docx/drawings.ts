/**
 * Drawings in a run: pictures, charts, SmartArt, Word shapes and text boxes (w:drawing), where an
 * anchored one floats, and legacy VML pictures and rules (w:pict).
 */
import { rgb } from 'pdf-lib';
import type { Block, DrawingInline, FloatingDrawing, Inline } from '../model.ts';
import { pictureDrawing } from '../model.ts';
import { attr, find, hexColor, imageMime, kid, kids, num, type XmlElement } from '../xml.ts';
import { colorResolver, cropOf, localName, part, shapesInline } from '../shapes.ts';
import { measureBlocks } from '../flow.ts';
import type { DocxContext, Rels } from './context.ts';
import { readBlocks } from './blocks.ts';
import { EMU } from './styles.ts';
import { NEWER_CHART_NOTE } from '../graphics.ts';

/** A drawing read from a run: in the line (`inline`), floating where it is anchored, or nothing. */
export type DrawingResult = { inline: Inline } | { float: FloatingDrawing } | undefined;

async function imageInline(ctx: DocxContext, drawing: XmlElement, partRels: Rels): Promise<Inline | undefined> {
  const extent = find(drawing, 'wp:extent');
  const blip = find(drawing, 'a:blip');
  const id = attr(blip, 'r:embed');
  if (!extent || !id) return undefined;
  const rel = partRels.get(id);
  if (!rel) return undefined;
  const mime = imageMime(rel.target);
  const format = rel.target.split('.').pop()?.toUpperCase();
  if (!mime) {
    ctx.notes.add(`images in ${format} format were left out`);
    return undefined;
  }
  let data = ctx.imageCache.get(rel.target);
  if (!data) {
    const file = ctx.zip.file(rel.target);
    if (!file) return undefined;
    data = await file.async('uint8array');
    ctx.imageCache.set(rel.target, data);
  }
  return {
    kind: 'image',
    bytes: data,
    mime,
    width: (num(extent, 'cx') ?? 0) * EMU,
    height: (num(extent, 'cy') ?? 0) * EMU,
    // Picture Format › Crop: the picture's hidden edges stay hidden (it was squeezed whole into the frame).
    crop: cropOf(find(drawing, 'pic:blipFill')),
  };
}

/**
 * Word shapes and text boxes (wps:wsp, groups wpg:wgp) as a drawing of the extent's size in the
 * flow, through the shared shape routine; a text box's paragraphs are read as body text and laid
 * out inside its insets.
 */
async function shapesDrawing(
  ctx: DocxContext,
  drawing: XmlElement,
  partRels: Rels,
  width: number,
  height: number,
): Promise<Inline | undefined> {
  const elements = kids(find(drawing, 'a:graphicData')).filter((el) => ['wsp', 'wgp'].includes(localName(el)));
  if (!elements.length || width <= 0 || height <= 0) return undefined;
  const theme = ctx.drawingTheme;
  return shapesInline(
    elements,
    { x: 0, y: 0, width, height },
    {
      color: colorResolver(theme),
      theme,
      textColor: theme.colors.dk1 ?? [0, 0, 0],
      defaultSize: 11,
      notes: ctx.notes,
      textBox: async (sp, box, textCtx) => {
        const blocks: Block[] = [];
        await readBlocks(ctx, find(sp, 'w:txbxContent')!, partRels, (block) => {
          if (block.kind !== 'pageBreak') blocks.push(block);
        });
        const bodyPr = part(sp, 'bodyPr');
        const inset = (name: string, fallback: number) => (num(bodyPr, name) ?? fallback) * EMU;
        const [left, right, top, bottom] = [
          inset('lIns', 91440),
          inset('rIns', 91440),
          inset('tIns', 45720),
          inset('bIns', 45720),
        ];
        const measured = await measureBlocks(blocks, Math.max(4, box.width - left - right), textCtx);
        const free = box.height - top - bottom - measured.height;
        const anchor = attr(bodyPr, 'anchor');
        const offset = Math.max(0, anchor === 'ctr' ? free / 2 : anchor === 'b' ? free : 0);
        return (page, x, y, dctx) => measured.draw(page, x + box.x + left, y - box.y - top - offset, dctx);
      },
    },
  );
}

/** How text makes room for an anchored drawing (wrap square, tight and through are all laid out as square). */
function wrapOf(anchor: XmlElement, behind: boolean): FloatingDrawing['wrap'] | undefined {
  const distance = Math.max(...['distL', 'distR', 'distT', 'distB'].map((name) => num(anchor, name) ?? 0)) * EMU;
  if (kid(anchor, 'wp:wrapNone') || behind) return { kind: 'none', distance: 0 };
  if (kid(anchor, 'wp:wrapTopAndBottom')) return { kind: 'topAndBottom', distance };
  const square = kid(anchor, 'wp:wrapSquare') ?? kid(anchor, 'wp:wrapTight') ?? kid(anchor, 'wp:wrapThrough');
  if (square) return { kind: 'square', distance, bothSides: (attr(square, 'wrapText') ?? 'bothSides') === 'bothSides' };
  return undefined;
}

/**
 * Where an anchored drawing floats (wp:anchor with wp:positionH / wp:positionV, or wp:simplePos)
 * and how text makes room for it; undefined for drawings that sit in the line.
 */
function floatingPlace(drawing: XmlElement): Omit<FloatingDrawing, 'drawing'> | undefined {
  const anchor = kid(drawing, 'wp:anchor');
  if (!anchor) return undefined;
  const behind = attr(anchor, 'behindDoc') === '1';
  const wrap = wrapOf(anchor, behind);
  if (!wrap) return undefined;
  if (attr(anchor, 'simplePos') === '1') {
    const pos = kid(anchor, 'wp:simplePos');
    return {
      behind,
      wrap,
      horizontal: { from: 'page', offset: (num(pos, 'x') ?? 0) * EMU },
      vertical: { from: 'page', offset: (num(pos, 'y') ?? 0) * EMU },
    };
  }
  const position = (name: string) => {
    const el = kid(anchor, name);
    const offset = Number(kid(el, 'wp:posOffset')?.textContent ?? 0) * EMU || 0;
    return { from: attr(el, 'relativeFrom') ?? '', offset, align: kid(el, 'wp:align')?.textContent?.trim() };
  };
  const h = position('wp:positionH');
  const v = position('wp:positionV');
  return {
    behind,
    wrap,
    horizontal: {
      // column, character, inside/outside margin: the text column
      from: h.from === 'page' || h.from === 'leftMargin' || h.from === 'rightMargin' ? h.from : 'margin',
      offset: h.offset,
      align:
        h.align === 'center'
          ? 'center'
          : h.align === 'right' || h.align === 'outside'
            ? 'right'
            : h.align
              ? 'left'
              : undefined,
    },
    vertical: {
      // paragraph, line: the paragraph
      from:
        v.from === 'page' || v.from === 'margin' || v.from === 'topMargin' || v.from === 'bottomMargin'
          ? v.from
          : 'paragraph',
      offset: v.offset,
      align:
        v.align === 'center'
          ? 'center'
          : v.align === 'bottom' || v.align === 'outside'
            ? 'bottom'
            : v.align
              ? 'top'
              : undefined,
    },
  };
}

/** A w:drawing: a chart, SmartArt, shapes or a picture, in the line or floating where it is anchored. */
export async function readDrawing(ctx: DocxContext, drawing: XmlElement, partRels: Rels): Promise<DrawingResult> {
  const extent = find(drawing, 'wp:extent');
  const [width, height] = [(num(extent, 'cx') ?? 0) * EMU, (num(extent, 'cy') ?? 0) * EMU];
  const image = find(drawing, 'c:chart')
    ? await ctx.readChart(drawing, partRels, width, height)
    : find(drawing, 'dgm:relIds')
      ? await ctx.readSmartArt(drawing, partRels, width, height)
      : find(drawing, 'wps:wsp') || find(drawing, 'wpg:wgp')
        ? await shapesDrawing(ctx, drawing, partRels, width, height)
        : await imageInline(ctx, drawing, partRels);
  if (!image) {
    if (find(drawing, 'dgm:relIds')) ctx.notes.add('SmartArt diagrams without a pre-rendered drawing were left out');
    if (find(drawing, 'cx:chart')) ctx.notes.add(NEWER_CHART_NOTE);
    return undefined;
  }
  // In front of or behind the text: it takes no room in the flow and is placed where it is anchored.
  const place = floatingPlace(drawing);
  if (place && (image.kind === 'drawing' || image.kind === 'image')) {
    return { float: { ...place, drawing: image.kind === 'drawing' ? image : pictureDrawing(image) } };
  }
  return { inline: image };
}

/** A CSS length of a VML style (pt, in, px, cm, mm; px when unitless) in points. */
export function cssLength(value: string | undefined): number | undefined {
  const match = /^(-?[\d.]+)(pt|in|px|cm|mm)?$/.exec(value ?? '');
  const units: Record<string, number> = { pt: 1, in: 72, px: 0.75, cm: 72 / 2.54, mm: 72 / 25.4 };
  return match ? Number(match[1]) * units[match[2] ?? 'px'] : undefined;
}

/** The declarations of a VML style attribute ("width:200pt;position:absolute…"). */
export function vmlStyle(shape: XmlElement | undefined): Record<string, string> {
  return Object.fromEntries(
    (attr(shape, 'style') ?? '')
      .split(';')
      .map((d) => d.split(':').map((v) => v.trim()))
      .filter((d) => d.length === 2),
  );
}

/**
 * A VML text box (v:shape, v:rect… holding v:textbox › w:txbxContent: what older Word files and some
 * generators write): its paragraphs inside the box's insets, over its fill and outline; floating where
 * its style places it when absolutely positioned (from the text column and the paragraph, VML's defaults).
 */
export async function readVmlTextBox(ctx: DocxContext, pict: XmlElement, partRels: Rels): Promise<DrawingResult> {
  const shape = kids(pict).find((el) => ['v:shape', 'v:rect', 'v:roundrect', 'v:oval'].includes(el.nodeName));
  const content = find(kid(shape, 'v:textbox'), 'w:txbxContent');
  if (!shape || !content) return undefined;
  const css = vmlStyle(shape);
  const width = cssLength(css.width) ?? 0;
  if (width <= 0) return undefined;
  const blocks: Block[] = [];
  await readBlocks(ctx, content, partRels, (block) => {
    if (block.kind !== 'pageBreak') blocks.push(block);
  });
  // v:textbox inset: left, top, right, bottom (Word's default 0.1 in and 0.05 in).
  const inset = (attr(kid(shape, 'v:textbox'), 'inset') ?? '').split(',').map((v) => cssLength(v.trim()));
  const [inLeft, inTop, inRight, inBottom] = [inset[0] ?? 7.2, inset[1] ?? 3.6, inset[2] ?? 7.2, inset[3] ?? 3.6];
  const fitsText = /mso-fit-shape-to-text:\s*t/.test(attr(kid(shape, 'v:textbox'), 'style') ?? '');
  const on = (name: string) => !['f', 'false'].includes(attr(shape, name) ?? '');
  const fill = on('filled') ? (hexColor(attr(shape, 'fillcolor')?.replace(/^#/, '')) ?? [1, 1, 1]) : undefined;
  const stroke = on('stroked') ? (hexColor(attr(shape, 'strokecolor')?.replace(/^#/, '')) ?? [0, 0, 0]) : undefined;
  const lineWidth = cssLength(attr(shape, 'strokeweight')) ?? 0.75;
  const height = Math.max(1, cssLength(css.height) ?? 0);
  const drawing: DrawingInline = {
    kind: 'drawing',
    width,
    height,
    prepare: async (textCtx) => {
      const measured = await measureBlocks(blocks, Math.max(4, width - inLeft - inRight), textCtx);
      const boxHeight = fitsText ? Math.max(height, measured.height + inTop + inBottom) : height;
      return (page, x, bottom) => {
        const frame = { x, y: bottom + height - boxHeight, width, height: boxHeight };
        if (fill || stroke)
          page.drawRectangle({
            ...frame,
            color: fill && rgb(...fill),
            borderColor: stroke && rgb(...stroke),
            borderWidth: stroke ? lineWidth : 0,
          });
        measured.draw(page, x + inLeft, bottom + height - inTop, { pageNumber: 1, pageCount: 1 });
      };
    },
  };
  if (css.position !== 'absolute') return { inline: drawing };
  return {
    float: {
      drawing,
      behind: (Number(css['z-index']) || 0) < 0,
      wrap: { kind: 'none', distance: 0 },
      horizontal: {
        from: css['mso-position-horizontal-relative'] === 'page' ? 'page' : 'margin',
        offset: cssLength(css['margin-left']) ?? 0,
      },
      vertical: {
        from: css['mso-position-vertical-relative'] === 'page' ? 'page' : 'paragraph',
        offset: cssLength(css['margin-top']) ?? 0,
      },
    },
  };
}

/**
 * Legacy VML (w:pict, from older Word files): pictures (v:imagedata) at the shape's size, and
 * horizontal rules (o:hr); other VML shapes are left out with a note.
 */
export async function readVml(ctx: DocxContext, pict: XmlElement, partRels: Rels): Promise<Inline | undefined> {
  const shape = kids(pict).find((el) => ['v:shape', 'v:rect', 'v:image'].includes(el.nodeName));
  const css = vmlStyle(shape);
  const imageId = attr(find(pict, 'v:imagedata'), 'r:id');
  const rel = imageId ? partRels.get(imageId) : undefined;
  const mime = rel ? imageMime(rel.target) : undefined;
  const width = cssLength(css.width),
    height = cssLength(css.height);
  if (rel && mime && width && height) {
    const file = ctx.zip.file(rel.target);
    if (file) return { kind: 'image', bytes: await file.async('uint8array'), mime, width, height };
  }
  if (attr(shape, 'o:hr') === 't' || attr(shape, 'o:hr') === 'true') {
    // A horizontal rule across the text column (its height, at least half a point; grey unless
    // filled). The column's width is not known here: the rule runs to the same distance from the
    // page's right edge as it starts from its left (Word's margins are usually even).
    const thickness = Math.max(0.5, height ?? 1.5);
    const color = hexColor(attr(shape, 'fillcolor')?.replace(/^#/, '')) ?? [0.63, 0.63, 0.63];
    return {
      kind: 'drawing',
      width: 0,
      height: thickness + 2,
      prepare: async () => (page, x, bottom) =>
        page.drawRectangle({
          x,
          y: bottom + 1,
          width: Math.max(0, page.getWidth() - 2 * x),
          height: thickness,
          color: rgb(...color),
        }),
    };
  }
  ctx.notes.add('legacy VML drawings were left out');
  return undefined;
}

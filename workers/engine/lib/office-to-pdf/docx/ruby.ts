/**
 * Ruby (w:ruby: East Asian phonetic guides, e.g. とうきょう over 東京): the base text stays in the
 * line as ordinary text; the guide is a drawing of no width placed just before it, which draws the
 * guide centred above the base and makes the line as much taller as LibreOffice 7.4 makes it (the
 * guide's line: 1.3 × its size).
 */
import { popGraphicsState, pushGraphicsState, rgb, setCharacterSpacing } from 'pdf-lib';
import type { DrawingInline, Inline, RunStyle } from '../model.ts';
import type { TextContext } from '../text.ts';

/** Share of a text size above the baseline in the Office fonts' stand-ins (Carlito 0.95, Liberation 0.89–0.91). */
const ASCENT = 0.95;
/** Share of a text size below the baseline in them. */
const DESCENT = 0.27;
/** The height LibreOffice 7.4 adds to a line for a guide, as a multiple of the guide's size. */
const GUIDE_LINE = 1.3;

type TextInline = Extract<Inline, { kind: 'text' }>;

async function measure(ctx: TextContext, pieces: TextInline[]) {
  const spans = [];
  for (const piece of pieces) {
    const request = { family: piece.style.font, bold: piece.style.bold, italic: piece.style.italic };
    for (const span of await ctx.fonts.spans(piece.text, request))
      spans.push({ ...span, style: piece.style, width: span.font.widthOfTextAtSize(span.text, piece.style.size) });
  }
  return { spans, width: spans.reduce((sum, span) => sum + span.width, 0) };
}

/**
 * The guide over `base` (the base text's pieces, as the line holds them): a drawing of no width whose
 * top is the guide's line above the base's letters, and which reaches as far below the baseline as
 * the base's letters do. `align` is w:rubyAlign: center, left, right, distributeLetter (the guide's
 * letters spread from the base's first to its last), distributeSpace (spread with half a gap at the ends).
 */
export function rubyGuide(guide: TextInline[], base: TextInline[], align?: string): DrawingInline | undefined {
  const guideSize = Math.max(0, ...guide.map((piece) => piece.style.size));
  const baseSize = Math.max(0, ...base.map((piece) => piece.style.size));
  if (!guide.some((piece) => piece.text.trim()) || !(guideSize > 0) || !(baseSize > 0)) return undefined;
  const height = ASCENT * baseSize + GUIDE_LINE * guideSize;
  return {
    kind: 'drawing',
    width: 0,
    height,
    depth: DESCENT * baseSize,
    prepare: async (ctx) => {
      const [over, under] = [await measure(ctx, guide), await measure(ctx, base)];
      const first: RunStyle = guide[0].style;
      const { ascent } = await ctx.fonts.metrics({ family: first.font, bold: first.bold, italic: first.italic });
      // Where the guide starts from the base's left edge, and the gap after each of its characters
      // (w:rubyAlign; past the base's width the guide is centred on it).
      const count = over.spans.reduce((n, span) => n + [...span.text].length, 0);
      const free = under.width - over.width;
      const spread = free > 0 && (align === 'distributeSpace' || (align === 'distributeLetter' && count > 1));
      const gap = !spread ? 0 : align === 'distributeSpace' ? free / count : free / (count - 1);
      const offset =
        free <= 0
          ? free / 2
          : spread
            ? align === 'distributeSpace'
              ? gap / 2
              : 0
            : align === 'left'
              ? 0
              : align === 'right'
                ? free
                : free / 2;
      return (page, x, baseline) => {
        let pen = x + offset;
        const y = baseline + height - (ascent * guideSize + (GUIDE_LINE - 1) * guideSize * 0.5);
        // The gap as character spacing, so that a reader still finds the guide's word.
        page.pushOperators(pushGraphicsState(), setCharacterSpacing(gap));
        for (const span of over.spans) {
          page.drawText(span.text, {
            x: pen,
            y,
            font: span.font,
            size: span.style.size,
            color: rgb(...(span.style.color ?? [0, 0, 0])),
          });
          pen += span.width + gap * [...span.text].length;
        }
        page.pushOperators(popGraphicsState());
      };
    },
  };
}

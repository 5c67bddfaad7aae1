/**
 * Equations (Word's Insert › Equation, OMML), laid out as boxes the way a math typesetter stacks them:
 * fractions over a bar on the math axis, scripts raised and lowered at 70 %, radicals with their sign
 * drawn to the body's height, big operators with limits, stretched brackets, matrices, accents and
 * bars. docx/math.ts reads OMML into the `MathNode` tree; `mathInline` makes it one inline of the
 * paragraph, sized with the document's fonts when the paragraph is laid out. Letters are italic
 * unless the equation says plain; the font is the run's (Cambria Math, drawn with Caladea, its
 * metric twin), characters it lacks coming from the usual fallbacks.
 */
import { rgb, type PDFPage } from 'pdf-lib';
import { paragraph, type Inline, type Rgb, type RunStyle } from './model.ts';
import { drawLine, layoutParagraph, type TextContext } from './text.ts';

export type MathNode =
  | { kind: 'text'; text: string; plain?: boolean; bold?: boolean }
  | { kind: 'row'; items: MathNode[] }
  | { kind: 'fraction'; numerator: MathNode; denominator: MathNode; bar: boolean }
  | { kind: 'scripts'; base: MathNode; sup?: MathNode; sub?: MathNode }
  | { kind: 'radical'; body: MathNode; degree?: MathNode }
  | { kind: 'nary'; operator: string; body: MathNode; sub?: MathNode; sup?: MathNode; limitsBeside: boolean }
  | { kind: 'delimited'; open: string; close: string; separator: string; items: MathNode[] }
  | { kind: 'over'; body: MathNode; mark: string; under?: boolean }
  | { kind: 'bar'; body: MathNode; under: boolean }
  | { kind: 'limit'; base: MathNode; limit: MathNode; under: boolean }
  | { kind: 'matrix'; rows: MathNode[][] }
  | { kind: 'lines'; rows: MathNode[] };

interface Box {
  width: number;
  /** Height above the baseline, and depth below it. */
  ascent: number;
  descent: number;
  draw: (page: PDFPage, x: number, baseline: number) => void;
}

/** Script size: 70 % of the base, no smaller than 5 pt (Word's 60 % second level kept readable). */
const scriptSize = (size: number) => Math.max(5, size * 0.7);

/**
 * Relations (=, <, ≤, →…) take a thick space each side, binary operators (+, −, ±, ×…) a medium one;
 * a sign that opens its row (`leading`), or follows a relation or a bracket, is unary and keeps none.
 */
function spaceOperators(text: string, leading: boolean): string {
  const spaced = text
    .replace(/\s*([=<>≤≥≈≠≡∼≃∝→←↔⇒⇔∈∉⊂⊃⊆⊇])\s*/gu, '\u2005$1\u2005')
    .replace(/(?<=^|[^\s\u2005([{])\s*([+\u2212±∓×·÷∪∩])\s*/gu, (_match, op: string, at: number) =>
      at === 0 && leading ? op : `\u205F${op}\u205F`,
    );
  return leading ? spaced.replace(/^\u2005/, '') : spaced;
}

const HORIZONTAL_BRACKETS = /^[⏜⏝⏞⏟⎴⎵]$/u;

const empty: Box = { width: 0, ascent: 0, descent: 0, draw: () => undefined };

/** Boxes side by side on one baseline. */
function hbox(boxes: Box[]): Box {
  return {
    width: boxes.reduce((sum, b) => sum + b.width, 0),
    ascent: Math.max(0, ...boxes.map((b) => b.ascent)),
    descent: Math.max(0, ...boxes.map((b) => b.descent)),
    draw: (page, x, baseline) => {
      let at = x;
      for (const b of boxes) {
        b.draw(page, at, baseline);
        at += b.width;
      }
    },
  };
}

/** A box moved up by `rise` (down when negative). */
function raised(box: Box, rise: number): Box {
  return {
    width: box.width,
    ascent: Math.max(0, box.ascent + rise),
    descent: Math.max(0, box.descent - rise),
    draw: (page, x, baseline) => box.draw(page, x, baseline + rise),
  };
}

/** A box centred in `width`. */
function centred(box: Box, width: number): Box {
  return { ...box, width, draw: (page, x, baseline) => box.draw(page, x + (width - box.width) / 2, baseline) };
}

class MathLayout {
  constructor(
    private readonly ctx: TextContext,
    private readonly style: RunStyle,
  ) {}

  private get ink() {
    const [r, g, b]: Rgb = this.style.color ?? [0, 0, 0];
    return rgb(r, g, b);
  }

  /**
   * Text in the equation's font: letters italic unless plain, the rest upright; a hyphen is a minus
   * sign, and relations and binary operators get space around them (not a sign at the start).
   */
  async text(
    text: string,
    size: number,
    options: { plain?: boolean; bold?: boolean; leading?: boolean } = {},
  ): Promise<Box> {
    if (!options.plain) text = spaceOperators(text.replace(/-/g, '\u2212'), options.leading ?? true);
    if (!text) return empty;
    const parts = options.plain ? [text] : (text.match(/\p{L}+|[^\p{L}]+/gu) ?? []);
    const inlines: Inline[] = parts.map((part) => ({
      kind: 'text',
      text: part,
      style: {
        ...this.style,
        size,
        bold: options.bold,
        italic: !options.plain && /\p{L}/u.test(part) ? true : undefined,
        underline: undefined,
        link: undefined,
      },
    }));
    const laid = await layoutParagraph(paragraph(inlines, { noWrap: true }), 1e6, this.ctx);
    const line = laid.lines[0];
    if (!line) return empty;
    // The font's ascent and descent, less its line gap: boxes of a fraction sit close, as in Word.
    const ascent = line.baseline * 0.92;
    const descent = Math.max(0, (line.height - line.baseline) * 0.75);
    return {
      width: line.width,
      ascent,
      descent,
      draw: (page, x, baseline) =>
        drawLine(page, laid, 0, x - line.x, baseline + line.baseline, { pageNumber: 1, pageCount: 1 }),
    };
  }

  async node(node: MathNode, size: number): Promise<Box> {
    switch (node.kind) {
      case 'text':
        return this.text(node.text, size, node);
      case 'row':
        return hbox(
          await Promise.all(
            node.items.map((item, i) =>
              item.kind === 'text' ? this.text(item.text, size, { ...item, leading: i === 0 }) : this.node(item, size),
            ),
          ),
        );
      case 'fraction':
        return this.fraction(node, size);
      case 'scripts':
        return this.scripts(await this.node(node.base, size), node.sup, node.sub, size);
      case 'radical':
        return this.radical(node, size);
      case 'nary':
        return this.nary(node, size);
      case 'delimited':
        return this.delimited(node, size);
      case 'over':
        return this.over(node, size);
      case 'bar':
        return this.bar(node, size);
      case 'limit':
        return this.limit(node, size);
      case 'matrix':
        return this.grid(node.rows, size, 'center');
      case 'lines':
        return this.grid(
          node.rows.map((row) => [row]),
          size,
          'left',
        );
    }
  }

  /** Scripts or limits above and below, at `size`; undefined where there is none. */
  private pair(upper: MathNode | undefined, lower: MathNode | undefined, size: number) {
    return Promise.all([upper && this.node(upper, size), lower && this.node(lower, size)]);
  }

  /** The math axis (where a fraction's bar and a minus sign sit): a quarter of the size up. */
  private axis(size: number): number {
    return size * 0.25;
  }

  private async fraction(node: Extract<MathNode, { kind: 'fraction' }>, size: number): Promise<Box> {
    const [top, bottom] = await Promise.all([this.node(node.numerator, size), this.node(node.denominator, size)]);
    const rule = Math.max(0.4, size / 18);
    const gap = size * 0.12;
    const width = Math.max(top.width, bottom.width) + size * 0.2;
    const axis = this.axis(size);
    const topRise = axis + rule / 2 + gap + top.descent;
    const bottomDrop = axis - rule / 2 - gap - bottom.ascent;
    const parts = [raised(centred(top, width), topRise), raised(centred(bottom, width), bottomDrop)];
    return {
      width: width + size * 0.1,
      ascent: topRise + top.ascent,
      descent: Math.max(0, -bottomDrop + bottom.descent),
      draw: (page, x, baseline) => {
        for (const part of parts) part.draw(page, x + size * 0.05, baseline);
        if (node.bar) {
          const y = baseline + axis;
          page.drawLine({
            start: { x: x + size * 0.05, y },
            end: { x: x + size * 0.05 + width, y },
            thickness: rule,
            color: this.ink,
          });
        }
      },
    };
  }

  private async scripts(base: Box, sup: MathNode | undefined, sub: MathNode | undefined, size: number): Promise<Box> {
    const small = scriptSize(size);
    const [up, down] = await this.pair(sup, sub, small);
    const upRise = Math.max(size * 0.38, base.ascent - small * 0.45);
    const downDrop = -Math.max(size * 0.18, base.descent + small * 0.05, up ? small * 0.3 : 0);
    const scripts = [up && raised(up, upRise), down && raised(down, downDrop)].filter((b): b is Box => !!b);
    const width = Math.max(0, ...scripts.map((b) => b.width)) + size * 0.05;
    return {
      width: base.width + width,
      ascent: Math.max(base.ascent, ...scripts.map((b) => b.ascent)),
      descent: Math.max(base.descent, ...scripts.map((b) => b.descent)),
      draw: (page, x, baseline) => {
        base.draw(page, x, baseline);
        for (const script of scripts) script.draw(page, x + base.width + size * 0.03, baseline);
      },
    };
  }

  private async radical(node: Extract<MathNode, { kind: 'radical' }>, size: number): Promise<Box> {
    const body = await this.node(node.body, size);
    const degree = node.degree ? await this.node(node.degree, scriptSize(scriptSize(size))) : undefined;
    const rule = Math.max(0.4, size / 18);
    const top = body.ascent + size * 0.12;
    const bottom = body.descent;
    const sign = size * 0.55; // the sign's width
    const lead = degree ? Math.max(0, degree.width - sign * 0.5) : 0;
    return {
      width: lead + sign + body.width + size * 0.1,
      ascent: Math.max(top + rule, degree ? top * 0.6 + degree.ascent + degree.descent : 0),
      descent: bottom,
      draw: (page, x, baseline) => {
        const x0 = x + lead;
        const path = [
          [x0, baseline + size * 0.22],
          [x0 + sign * 0.25, baseline + size * 0.3],
          [x0 + sign * 0.55, baseline - bottom],
          [x0 + sign, baseline + top],
          [x0 + sign + body.width + size * 0.05, baseline + top],
        ];
        for (let i = 1; i < path.length; i++) {
          page.drawLine({
            start: { x: path[i - 1][0], y: path[i - 1][1] },
            end: { x: path[i][0], y: path[i][1] },
            thickness: i === 1 ? rule * 0.8 : i === 2 ? rule * 1.6 : rule,
            color: this.ink,
          });
        }
        body.draw(page, x0 + sign + size * 0.03, baseline);
        degree?.draw(page, x, baseline + top * 0.6 + degree.descent);
      },
    };
  }

  private async nary(node: Extract<MathNode, { kind: 'nary' }>, size: number): Promise<Box> {
    const integral = /[∫∬∭∮∯∰]/u.test(node.operator);
    const operator = raised(
      await this.text(node.operator, size * (integral ? 1.6 : 1.4), { plain: true }),
      -size * 0.1,
    );
    const body = await this.node(node.body, size);
    let sign: Box;
    if (node.limitsBeside || integral) sign = await this.scripts(operator, node.sup, node.sub, size);
    else {
      const [over, under] = await this.pair(node.sup, node.sub, scriptSize(size));
      sign = this.stack(operator, over, under, size * 0.08);
    }
    return hbox([sign, { ...empty, width: size * 0.1 }, body]);
  }

  /** `middle` with `over` centred above it and `under` below, `gap` apart. */
  private stack(middle: Box, over: Box | undefined, under: Box | undefined, gap: number): Box {
    const width = Math.max(middle.width, over?.width ?? 0, under?.width ?? 0);
    const overRise = middle.ascent + gap + (over?.descent ?? 0);
    const underDrop = -(middle.descent + gap + (under?.ascent ?? 0));
    const parts = [
      centred(middle, width),
      over && raised(centred(over, width), overRise),
      under && raised(centred(under, width), underDrop),
    ].filter((b): b is Box => !!b);
    return {
      width,
      ascent: over ? overRise + over.ascent : middle.ascent,
      descent: under ? -underDrop + under.descent : middle.descent,
      draw: (page, x, baseline) => parts.forEach((part) => part.draw(page, x, baseline)),
    };
  }

  private async delimited(node: Extract<MathNode, { kind: 'delimited' }>, size: number): Promise<Box> {
    const items = await Promise.all(node.items.map((item) => this.node(item, size)));
    const inner = hbox(items.flatMap((item, i) => (i === 0 ? [item] : [empty, item])));
    // Brackets grow with what they enclose: a bracket at a size as tall as the content, centred on the axis.
    const axis = this.axis(size);
    const reach = Math.max(inner.ascent - axis, inner.descent + axis, size * 0.5);
    const bracketSize = Math.max(size, reach * 2 * 0.85);
    const bracket = async (chr: string) =>
      chr ? raised(await this.text(chr, bracketSize, { plain: true }), axis - bracketSize * 0.25) : empty;
    const separator = node.separator ? await bracket(node.separator) : empty;
    const parts = [await bracket(node.open)];
    items.forEach((item, i) => parts.push(...(i > 0 ? [separator, item] : [item])));
    parts.push(await bracket(node.close));
    return hbox(parts);
  }

  private async over(node: Extract<MathNode, { kind: 'over' }>, size: number): Promise<Box> {
    const body = await this.node(node.body, size);
    if (HORIZONTAL_BRACKETS.test(node.mark)) return this.horizontalBracket(body, node.mark, size);
    const mark = await this.text(node.mark, size * (node.under ? 0.9 : 1), { plain: true });
    const shift = node.under ? -(body.descent + mark.ascent) : body.ascent - mark.ascent * 0.45;
    const placed = raised(centred(mark, Math.max(body.width, mark.width)), shift);
    return {
      width: Math.max(body.width, mark.width),
      ascent: Math.max(body.ascent, placed.ascent),
      descent: Math.max(body.descent, placed.descent),
      draw: (page, x, baseline) => {
        centred(body, Math.max(body.width, mark.width)).draw(page, x, baseline);
        placed.draw(page, x, baseline);
      },
    };
  }

  /**
   * A brace or bracket over or under its body (⏞ ⏟ ⏜ ⏝ ⎴ ⎵, which the fonts lack), drawn as lines
   * across the body's width: ends turned towards it, a brace's point away from it.
   */
  private horizontalBracket(body: Box, mark: string, size: number): Box {
    const under = /[⏟⏝⎵]/u.test(mark);
    const rule = Math.max(0.4, size / 18);
    const depth = size * 0.25;
    const y = under ? -(body.descent + size * 0.1 + depth) : body.ascent + size * 0.1 + depth;
    const toward = under ? depth : -depth;
    return {
      ...body,
      ascent: Math.max(body.ascent, y + depth + rule),
      descent: Math.max(body.descent, -y + depth + rule),
      draw: (page, x, baseline) => {
        body.draw(page, x, baseline);
        const line = (x1: number, y1: number, x2: number, y2: number) =>
          page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: rule, color: this.ink });
        const at = baseline + y;
        line(x, at, x + body.width, at);
        line(x, at, x, at + toward);
        line(x + body.width, at, x + body.width, at + toward);
        if (/[⏞⏟]/u.test(mark)) line(x + body.width / 2, at, x + body.width / 2, at - toward);
      },
    };
  }

  private async bar(node: Extract<MathNode, { kind: 'bar' }>, size: number): Promise<Box> {
    const body = await this.node(node.body, size);
    const rule = Math.max(0.4, size / 18);
    const y = node.under ? -(body.descent + size * 0.08) : body.ascent + size * 0.08;
    return {
      ...body,
      ascent: Math.max(body.ascent, y + rule),
      descent: Math.max(body.descent, -y + rule),
      draw: (page, x, baseline) => {
        body.draw(page, x, baseline);
        page.drawLine({
          start: { x, y: baseline + y },
          end: { x: x + body.width, y: baseline + y },
          thickness: rule,
          color: this.ink,
        });
      },
    };
  }

  private async limit(node: Extract<MathNode, { kind: 'limit' }>, size: number): Promise<Box> {
    const base = await this.node(node.base, size);
    const limit = await this.node(node.limit, scriptSize(size));
    return node.under
      ? this.stack(base, undefined, limit, size * 0.05)
      : this.stack(base, limit, undefined, size * 0.05);
  }

  /** Rows of cells (a matrix, an equation array): columns as wide as their widest cell, rows stacked on the axis. */
  private async grid(rows: MathNode[][], size: number, align: 'left' | 'center'): Promise<Box> {
    const cells = await Promise.all(rows.map((row) => Promise.all(row.map((cell) => this.node(cell, size)))));
    const columns = Math.max(0, ...cells.map((row) => row.length));
    const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...cells.map((row) => row[c]?.width ?? 0)));
    const gap = size * 0.8;
    const lead = size * 0.25;
    const heights = cells.map((row) => ({
      ascent: Math.max(size * 0.7, ...row.map((b) => b.ascent)),
      descent: Math.max(size * 0.25, ...row.map((b) => b.descent)),
    }));
    const total = heights.reduce((sum, h) => sum + h.ascent + h.descent, 0) + lead * Math.max(0, rows.length - 1);
    const axis = this.axis(size);
    const top = axis + total / 2;
    const width = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, columns - 1);
    return {
      width,
      ascent: Math.max(0, top),
      descent: Math.max(0, total - top),
      draw: (page, x, baseline) => {
        let y = baseline + top;
        cells.forEach((row, r) => {
          y -= heights[r].ascent;
          let at = x;
          row.forEach((cell, c) => {
            (align === 'center' ? centred(cell, widths[c]) : cell).draw(page, at, y);
            at += widths[c] + gap;
          });
          y -= heights[r].descent + lead;
        });
      },
    };
  }
}

/**
 * An equation as one inline of its paragraph, in `style` (its size and colour); `display`: on a line
 * of its own (Word's m:oMathPara), where big operators take their limits above and below.
 */
export function mathInline(node: MathNode, style: RunStyle): Inline {
  return {
    kind: 'measured',
    layout: async (ctx) => {
      const box = await new MathLayout(ctx, style).node(node, style.size);
      // A little room above and below, so that a fraction or a radical does not touch the lines beside it.
      const pad = style.size * 0.12;
      return { width: box.width, height: box.ascent + pad, depth: box.descent + pad, draw: box.draw };
    },
  };
}

/**
 * MathML (presentation markup) read into math.ts's `MathNode` tree: the formulas of OpenDocument
 * files, each an embedded object whose content.xml is a <math> element (LibreOffice Math). Elements
 * are matched by local name, with or without a prefix; an element this reader does not know keeps
 * its children in line, so no text of a formula is lost.
 */
import type { MathNode } from './math.ts';
import { kids, type XmlElement } from './xml.ts';

const local = (el: XmlElement) => el.nodeName.replace(/^.*:/, '');
const children = (el: XmlElement) => kids(el).filter((child) => !/^annotation/.test(local(child)));

/** Sums, products, integrals and the like: limits above and below them (beside for integrals). */
const LARGE_OPERATOR = /^[∑∏∐⋀⋁⋂⋃⨀⨁⨂∫∬∭∮∯∰]$/u;

const row = (items: MathNode[]): MathNode => (items.length === 1 ? items[0] : { kind: 'row', items });
const textOf = (el: XmlElement) => (el.textContent ?? '').trim();

/** Nesting deeper than any real formula (a hostile file's): read as plain text. */
const MAX_DEPTH = 40;

function node(el: XmlElement, depth = 0): MathNode {
  if (depth > MAX_DEPTH) return { kind: 'text', text: el.textContent ?? '', plain: true };
  const parts = children(el).map((child) => node(child, depth + 1));
  const [first, second, third] = parts;
  switch (local(el)) {
    case 'mi': {
      const text = textOf(el);
      // A one-letter identifier is italic; a longer one (sin, log) upright, unless mathvariant says.
      const variant = el.getAttribute('mathvariant');
      const plain = variant ? !variant.includes('italic') : [...text].length > 1;
      return { kind: 'text', text, plain, bold: variant?.includes('bold') || undefined };
    }
    case 'mn':
    case 'mtext':
    case 'ms':
      return { kind: 'text', text: textOf(el), plain: true };
    case 'mo': {
      const text = textOf(el);
      return { kind: 'text', text, plain: /\p{L}/u.test(text) };
    }
    case 'mspace':
      return { kind: 'text', text: ' ', plain: true };
    case 'mfrac':
      return {
        kind: 'fraction',
        numerator: first ?? row([]),
        denominator: second ?? row([]),
        bar: !/^0(\.0*)?[a-z]*$/.test(el.getAttribute('linethickness') ?? ''),
      };
    case 'msup':
      return { kind: 'scripts', base: first ?? row([]), sup: second };
    case 'msub':
      return { kind: 'scripts', base: first ?? row([]), sub: second };
    case 'msubsup':
      return { kind: 'scripts', base: first ?? row([]), sub: second, sup: third };
    case 'msqrt':
      return { kind: 'radical', body: row(parts) };
    case 'mroot':
      return { kind: 'radical', body: first ?? row([]), degree: second };
    case 'munder':
    case 'mover':
    case 'munderover':
      return underOver(local(el), parts);
    case 'mfenced':
      return {
        kind: 'delimited',
        open: el.getAttribute('open') ?? '(',
        close: el.getAttribute('close') ?? ')',
        separator: (el.getAttribute('separators') ?? ',').trim().slice(0, 1),
        items: parts,
      };
    case 'mtable':
      return {
        kind: 'matrix',
        rows: children(el).map((tr) => children(tr).map((td) => row(children(td).map((c) => node(c, depth + 3))))),
      };
    case 'mrow':
      return fenced(el, parts) ?? row(parts);
    case 'mphantom':
      return row([]);
    default:
      // math, semantics, mstyle, mpadded, menclose, merror…: their content in line.
      return row(parts);
  }
}

/** munder / mover / munderover: a big operator's limits, an accent over its base, or a limit under "lim". */
function underOver(kind: string, [base, first, second]: MathNode[]): MathNode {
  const under = kind === 'mover' ? undefined : first;
  const over = kind === 'mover' ? first : kind === 'munderover' ? second : undefined;
  const body = base ?? row([]);
  if (body.kind === 'text' && LARGE_OPERATOR.test(body.text)) {
    return {
      kind: 'nary',
      operator: body.text,
      body: row([]),
      sub: under,
      sup: over,
      limitsBeside: /∫|∮/u.test(body.text),
    };
  }
  if (!under && over?.kind === 'text' && [...over.text].length === 1) return { kind: 'over', body, mark: over.text };
  let out: MathNode = body;
  if (under) out = { kind: 'limit', base: out, limit: under, under: true };
  if (over) out = { kind: 'limit', base: out, limit: over, under: false };
  return out;
}

/** An mrow between fence operators (LibreOffice's "left ( … right )"): brackets as tall as their content. */
function fenced(el: XmlElement, parts: MathNode[]): MathNode | undefined {
  const items = children(el);
  const isFence = (child: XmlElement | undefined) =>
    child !== undefined &&
    local(child) === 'mo' &&
    (child.getAttribute('fence') === 'true' || child.getAttribute('stretchy') === 'true');
  if (items.length < 2 || !isFence(items[0]) || !isFence(items[items.length - 1])) return undefined;
  return {
    kind: 'delimited',
    open: textOf(items[0]),
    close: textOf(items[items.length - 1]),
    separator: '',
    items: [row(parts.slice(1, -1))],
  };
}

/** A <math> element (an ODF formula object's content.xml root) as one tree. */
export function readMathMl(math: XmlElement): MathNode {
  return node(math);
}

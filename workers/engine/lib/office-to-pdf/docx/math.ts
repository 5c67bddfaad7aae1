/**
 * Word equations (OMML: m:oMath, m:oMathPara) read into math.ts's `MathNode` tree. Elements this
 * reader does not know keep their arguments (m:e) in line, so no text of an equation is lost.
 */
import type { MathNode } from '../math.ts';
import { attr, kid, kids, type XmlElement } from '../xml.ts';

/** Spacing forms of the combining accents Word puts over a letter (m:acc's m:chr). */
const ACCENTS: Record<string, string> = {
  '\u0300': '`',
  '\u0301': '´',
  '\u0302': 'ˆ',
  '\u0303': '˜',
  '\u0304': '¯',
  '\u0305': '¯',
  '\u0306': '˘',
  '\u0307': '˙',
  '\u0308': '¨',
  '\u030C': 'ˇ',
  '\u20D6': '←',
  '\u20D7': '→',
  '\u20E1': '↔',
};

/** A property of an element's m:…Pr child: its m:val (`fallback` when absent, '' for an empty m:val). */
function prop(el: XmlElement | undefined, name: string, fallback?: string): string | undefined {
  const pr = kid(el, `m:${(el?.nodeName ?? '').slice(2)}Pr`);
  const found = kid(pr, `m:${name}`);
  if (!found) return fallback;
  return attr(found, 'm:val') ?? '';
}

/** An on/off property (m:degHide, m:subHide …): on when present without a value. */
const hidden = (el: XmlElement, name: string) => ['1', 'on', 'true', ''].includes(prop(el, name) ?? 'off');

const row = (items: MathNode[]): MathNode => (items.length === 1 ? items[0] : { kind: 'row', items });

/** Nesting deeper than any real equation (a hostile file's thousands of fractions): read as plain text. */
export const MAX_MATH_DEPTH = 40;

/** The children of an argument (m:e, m:num, m:sub …) as one node. */
function arg(el: XmlElement | undefined, depth: number): MathNode {
  if (el && depth > MAX_MATH_DEPTH) return { kind: 'text', text: el.textContent ?? '', plain: true };
  return row(el ? kids(el).flatMap((child) => readMathElement(child, depth + 1)) : []);
}

function readMathElement(el: XmlElement, depth: number): MathNode[] {
  const part = (name: string) => arg(kid(el, `m:${name}`), depth);
  switch (el.nodeName) {
    case 'm:r': {
      const text = kids(el, 'm:t')
        .map((t) => t.textContent ?? '')
        .join('');
      const sty = attr(kid(kid(el, 'm:rPr'), 'm:sty'), 'm:val');
      const plain = sty === 'p' || sty === 'b' || kid(kid(el, 'm:rPr'), 'm:nor') !== undefined;
      return text ? [{ kind: 'text', text, plain, bold: sty === 'b' || sty === 'bi' || undefined }] : [];
    }
    case 'm:f':
      return [
        { kind: 'fraction', numerator: part('num'), denominator: part('den'), bar: prop(el, 'type') !== 'noBar' },
      ];
    case 'm:sSup':
      return [{ kind: 'scripts', base: part('e'), sup: part('sup') }];
    case 'm:sSub':
      return [{ kind: 'scripts', base: part('e'), sub: part('sub') }];
    case 'm:sSubSup':
      return [{ kind: 'scripts', base: part('e'), sub: part('sub'), sup: part('sup') }];
    case 'm:sPre':
      return [{ kind: 'scripts', base: row([]), sub: part('sub'), sup: part('sup') }, part('e')];
    case 'm:rad':
      return [{ kind: 'radical', body: part('e'), degree: hidden(el, 'degHide') ? undefined : part('deg') }];
    case 'm:nary':
      return [
        {
          kind: 'nary',
          operator: prop(el, 'chr') || '∫',
          body: part('e'),
          sub: hidden(el, 'subHide') ? undefined : part('sub'),
          sup: hidden(el, 'supHide') ? undefined : part('sup'),
          limitsBeside: prop(el, 'limLoc') === 'subSup',
        },
      ];
    case 'm:d':
      return [
        {
          kind: 'delimited',
          open: prop(el, 'begChr', '(')!,
          close: prop(el, 'endChr', ')')!,
          separator: prop(el, 'sepChr', '|')!,
          items: kids(el, 'm:e').map((e) => arg(e, depth)),
        },
      ];
    case 'm:func':
      return [asPlain(part('fName')), { kind: 'text', text: '\u2009', plain: true }, part('e')];
    case 'm:acc': {
      const chr = prop(el, 'chr', '\u0302')!;
      return [{ kind: 'over', body: part('e'), mark: ACCENTS[chr] ?? chr }];
    }
    case 'm:bar':
      return [{ kind: 'bar', body: part('e'), under: prop(el, 'pos', 'bot') !== 'top' }];
    case 'm:groupChr': {
      const under = prop(el, 'pos', 'bot') !== 'top';
      return [{ kind: 'over', body: part('e'), mark: prop(el, 'chr', '⏟')!, under }];
    }
    case 'm:limLow':
      return [{ kind: 'limit', base: part('e'), limit: part('lim'), under: true }];
    case 'm:limUpp':
      return [{ kind: 'limit', base: part('e'), limit: part('lim'), under: false }];
    case 'm:m':
      return [{ kind: 'matrix', rows: kids(el, 'm:mr').map((mr) => kids(mr, 'm:e').map((e) => arg(e, depth))) }];
    case 'm:eqArr':
      return [{ kind: 'lines', rows: kids(el, 'm:e').map((e) => arg(e, depth)) }];
    case 'm:e':
    case 'm:oMath':
      return [arg(el, depth)];
    default:
      // m:box, m:borderBox, m:phant and the like: their arguments in line; properties (m:…Pr) and
      // Word markup beside the math (bookmarks, proofing marks) add nothing.
      return el.nodeName.startsWith('m:') && !el.nodeName.endsWith('Pr')
        ? kids(el, 'm:e').map((e) => arg(e, depth))
        : [];
  }
}

/** Function names (sin, log) are upright. */
function asPlain(node: MathNode): MathNode {
  if (node.kind === 'text') return { ...node, plain: true };
  if (node.kind === 'row') return { kind: 'row', items: node.items.map(asPlain) };
  return node;
}

/** An m:oMath as one tree. */
export function readMath(oMath: XmlElement): MathNode {
  return arg(oMath, 0);
}

/** Where a display equation (m:oMathPara) stands on its line: Word centres it unless m:jc says otherwise. */
export function displayAlign(oMathPara: XmlElement): 'left' | 'center' | 'right' {
  const jc = attr(kid(kid(oMathPara, 'm:oMathParaPr'), 'm:jc'), 'm:val');
  return jc === 'left' ? 'left' : jc === 'right' ? 'right' : 'center';
}

/**
 * Numbered and bulleted lists (word/numbering.xml): each w:num's levels from its w:abstractNum, the
 * running counters, and the marker text of a list paragraph.
 */
import type { Paragraph } from '../model.ts';
import { attr, kid, kids, num, parseXml, type XmlElement } from '../xml.ts';
import { readParaProps, readRunProps, toStyle, type ParaProps, type RunProps, type ThemeFonts } from './styles.ts';
import { listNumber, type NumberStyle } from '../list-numbers.ts';

export interface NumberingLevel {
  format: string;
  text: string;
  start: number;
  pPr?: XmlElement;
  rPr?: XmlElement;
}

/**
 * The levels of each list (w:numId → w:ilvl → level), which counter each list counts on (lists of
 * one w:abstractNum continue each other's numbers, as in Word, unless one restarts with a
 * w:startOverride) and the counters of the lists read so far.
 */
export interface Numbering {
  lists: Map<string, Map<number, NumberingLevel>>;
  counterOf: Map<string, string>;
  counters: Map<string, number[]>;
}

function readLevel(lvl: XmlElement): NumberingLevel {
  return {
    format: attr(kid(lvl, 'w:numFmt'), 'w:val') ?? 'decimal',
    text: attr(kid(lvl, 'w:lvlText'), 'w:val') ?? '',
    start: num(kid(lvl, 'w:start'), 'w:val') ?? 1,
    pPr: kid(lvl, 'w:pPr'),
    rPr: kid(lvl, 'w:rPr'),
  };
}

export function readNumbering(numberingXml: string | undefined): Numbering {
  const lists = new Map<string, Map<number, NumberingLevel>>();
  const counterOf = new Map<string, string>();
  if (numberingXml) {
    const root = parseXml(numberingXml);
    const abstracts = new Map<string, XmlElement>();
    for (const abstract of kids(root, 'w:abstractNum'))
      abstracts.set(attr(abstract, 'w:abstractNumId') ?? '', abstract);
    for (const numEl of kids(root, 'w:num')) {
      const abstractId = attr(kid(numEl, 'w:abstractNumId'), 'w:val') ?? '';
      const abstract = abstracts.get(abstractId);
      if (!abstract) continue;
      const numId = attr(numEl, 'w:numId') ?? '';
      const levels = new Map<number, NumberingLevel>();
      for (const lvl of kids(abstract, 'w:lvl')) levels.set(num(lvl, 'w:ilvl') ?? 0, readLevel(lvl));
      // A list's own level definitions replace the abstract list's; a start override restarts its counting.
      let restarts = false;
      for (const override of kids(numEl, 'w:lvlOverride')) {
        const ilvl = num(override, 'w:ilvl') ?? 0;
        const lvl = kid(override, 'w:lvl');
        if (lvl) levels.set(ilvl, readLevel(lvl));
        const start = num(kid(override, 'w:startOverride'), 'w:val');
        if (start !== undefined && levels.has(ilvl)) {
          levels.set(ilvl, { ...levels.get(ilvl)!, start });
          restarts = true;
        }
      }
      lists.set(numId, levels);
      counterOf.set(numId, restarts ? `num ${numId}` : `abstract ${abstractId}`);
    }
  }
  return { lists, counterOf, counters: new Map() };
}

/**
 * A bullet as printed: codes of the symbol fonts (Symbol, Wingdings; often moved to U+F0xx) → the
 * Unicode character they draw. `font` is the list level's own font when known: a bullet in an
 * ordinary font (●, ○, ■ as Google Docs writes them, "o" in Courier New as Word's second level) is
 * printed as written, as Word and LibreOffice print it.
 */
export function bulletText(text: string, font?: string): string {
  const map: Record<string, string> = {
    '●': '•',
    '○': '◦',
    '■': '▪',
    '◆': '•',
    '\uf0b7': '•',
    '\uf0a7': '▪',
    '\uf0d8': '➢',
    '\uf0fc': '✓',
    '\uf076': '❖',
    '\uf06f': '◦',
    '\uf0a8': '□',
    '§': '▪',
    o: '◦',
  };
  const symbolCode = text.charCodeAt(0) >= 0xf000;
  if (font !== undefined && !symbolCode && !/symbol|wingdings|webdings/i.test(font)) return text;
  return map[text] ?? (symbolCode ? '•' : text);
}

/** A list or note number in a w:numFmt (decimal, lowerLetter, upperRoman…). */
export function formatNumber(n: number, format: string): string {
  return listNumber(n, format as NumberStyle);
}

/**
 * The list marker of a paragraph whose properties name a list, counting it; the level's indents
 * are applied to `props` under the paragraph's own (`pPr`), which win.
 */
export function listMarker(
  numbering: Numbering,
  props: ParaProps,
  pPr: XmlElement | undefined,
  paraRun: RunProps,
  themeFonts: ThemeFonts,
): Paragraph['marker'] {
  const levels = props.numId && props.numId !== '0' ? numbering.lists.get(props.numId) : undefined;
  const level = levels?.get(props.ilvl ?? 0);
  if (!level || !levels || !props.numId) return undefined;
  readParaProps(level.pPr, props);
  readParaProps(pPr, props); // direct indents win over the list level's
  const counter = numbering.counterOf.get(props.numId) ?? props.numId;
  const counts = numbering.counters.get(counter) ?? [];
  const ilvl = props.ilvl ?? 0;
  counts[ilvl] = (counts[ilvl] ?? levels.get(ilvl)!.start - 1) + 1;
  counts.length = ilvl + 1;
  numbering.counters.set(counter, counts);
  let text: string;
  if (level.format === 'bullet')
    text = bulletText(level.text, readRunProps(level.rPr, {}, themeFonts).font ?? paraRun.font);
  else if (level.format === 'none') text = '';
  else {
    text = level.text.replace(/%(\d)/g, (_, d: string) => {
      const outer = levels.get(Number(d) - 1);
      return formatNumber(counts[Number(d) - 1] ?? outer?.start ?? 1, outer?.format ?? 'decimal');
    });
  }
  return text
    ? { text, style: toStyle(readRunProps(level.rPr, { ...paraRun, underline: undefined }, themeFonts)) }
    : undefined;
}

/**
 * Spreadsheet page headers and footers: three regions (left, centre, right) side by side, as
 * Excel and Calc print them. Also reads Excel's header/footer codes (`&L&"Arial,Bold"&12Page &P of &N`).
 */
import type { Block, Inline, Paragraph, RunStyle, TableCell } from './model.ts';
import { paragraph } from './model.ts';

/** Left, centre and right regions' blocks → one borderless three-column row, or undefined when all are empty. */
export function regionsBlock(regions: readonly [Block[], Block[], Block[]], width: number): Block[] | undefined {
  const hasContent = regions.some((blocks) =>
    blocks.some((b) => b.kind !== 'paragraph' || b.inlines.some((i) => i.kind !== 'text' || i.text.trim())),
  );
  if (!hasContent) return undefined;
  const cells: Array<TableCell & { column: number }> = regions.map((blocks, column) => ({
    column,
    colSpan: 1,
    rowSpan: 1,
    blocks: blocks.map((block) =>
      block.kind === 'paragraph' ? { ...block, align: (['left', 'center', 'right'] as const)[column] } : block,
    ),
    borders: {},
    verticalAlign: 'top',
    padding: { top: 0, right: 0, bottom: 0, left: 0 },
  }));
  return [
    {
      kind: 'table',
      columnWidths: [width / 3, width / 3, width / 3],
      rows: [{ cells, minHeight: 0 }],
      indentLeft: 0,
      align: 'left',
    },
  ];
}

export interface FurnitureContext {
  sheetName: string;
  fileName: string;
  base: RunStyle;
  /** For &D and &T; the conversion time. */
  now?: Date;
  /**
   * The language &D and &T are written in; without one, the reader's (the browser's). Excel and LibreOffice
   * print them in the printing machine's locale, not the workbook's language (docProps dc:language): LibreOffice
   * 7.4 in en-US prints "11/27/2026" and "07:21:24" for a workbook in de-DE too.
   */
  locale?: string;
}

/** A BCP 47 tag the runtime knows, else undefined (its own locale): "" or "xx-garbage" must not throw. */
function knownLocale(tag: string | undefined): string | undefined {
  try {
    return tag && Intl.DateTimeFormat.supportedLocalesOf(tag).length ? tag : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An Excel header/footer string → its three regions. Codes: &L &C &R (region; text before any is
 * centred), &P &N (page, pages), &A (sheet), &F (file), &Z (path: empty here), &D &T (date, time),
 * &"Font,Style", &nn (size), &B &I &U &E &S (bold, italic, underline, double underline, strike:
 * toggles), &K (colour, ignored), &X &Y (super/subscript, ignored), &G (picture, ignored), && (&).
 */
export function parseExcelHeaderFooter(code: string | undefined, ctx: FurnitureContext): [Block[], Block[], Block[]] {
  const regions: [Inline[][], Inline[][], Inline[][]] = [[[]], [[]], [[]]];
  if (!code) return [[], [], []];
  let region = 1;
  let style: RunStyle = { ...ctx.base };
  const push = (inline: Inline) => regions[region].at(-1)!.push(inline);
  const text = (value: string) => value && push({ kind: 'text', text: value, style });
  const now = ctx.now ?? new Date();
  const locale = knownLocale(ctx.locale);
  let i = 0;
  let literal = '';
  const flush = () => {
    text(literal);
    literal = '';
  };
  while (i < code.length) {
    const ch = code[i];
    if (ch === '\n' || ch === '\r') {
      flush();
      if (ch === '\r' && code[i + 1] === '\n') i++;
      regions[region].push([]);
      i++;
      continue;
    }
    if (ch !== '&' || i === code.length - 1) {
      literal += ch;
      i++;
      continue;
    }
    const next = code[i + 1];
    if (next === '&') {
      literal += '&';
      i += 2;
      continue;
    }
    flush();
    i += 2;
    switch (next.toUpperCase()) {
      case 'L':
        region = 0;
        break;
      case 'C':
        region = 1;
        break;
      case 'R':
        region = 2;
        break;
      case 'P':
        push({ kind: 'field', field: 'PAGE', style });
        break;
      case 'N':
        push({ kind: 'field', field: 'NUMPAGES', style });
        break;
      case 'A':
        text(ctx.sheetName);
        break;
      case 'F':
        text(ctx.fileName);
        break;
      case 'D':
        text(now.toLocaleDateString(locale));
        break;
      case 'T':
        text(
          now.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }),
        );
        break;
      case 'B':
        style = { ...style, bold: !style.bold };
        break;
      case 'I':
        style = { ...style, italic: !style.italic };
        break;
      case 'U':
      case 'E':
        style = {
          ...style,
          underline: style.underline ? undefined : { line: next.toUpperCase() === 'E' ? 'double' : 'single' },
        };
        break;
      case 'S':
        style = { ...style, strike: !style.strike };
        break;
      case 'K':
        i += /^[0-9A-Fa-f]{6}/.test(code.slice(i, i + 6)) ? 6 : /^\d{2}[+-]\d{3}/.test(code.slice(i, i + 6)) ? 6 : 0;
        break;
      case '"': {
        const end = code.indexOf('"', i);
        const [font, fontStyle = ''] = code.slice(i, end === -1 ? code.length : end).split(',');
        i = end === -1 ? code.length : end + 1;
        style = {
          ...style,
          font: font && font !== '-' ? font : style.font,
          bold: /bold/i.test(fontStyle) || (fontStyle === '' ? style.bold : false),
          italic: /italic|oblique/i.test(fontStyle) || (fontStyle === '' ? style.italic : false),
        };
        break;
      }
      default:
        if (/\d/.test(next)) {
          const size = /^\d+/.exec(code.slice(i - 1))![0];
          style = { ...style, size: Number(size) || style.size };
          i += size.length - 1;
        }
      // &X, &Y, &G, &Z and unknown codes: nothing to print.
    }
  }
  flush();
  return regions.map((lines) =>
    lines
      .filter((line, index) => line.length > 0 || index < lines.length - 1)
      .map((inlines): Paragraph => paragraph(inlines.length ? inlines : [{ kind: 'text', text: '', style: ctx.base }])),
  ) as [Block[], Block[], Block[]];
}

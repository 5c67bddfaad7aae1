/**
 * Text frames (w:framePr): paragraphs Word places on the page like a floating box — older documents'
 * sidebars and address blocks, PDF-to-Word converters' positioned text, drop caps. Consecutive
 * paragraphs with the same frame properties share one frame. A frame becomes a floating one-cell
 * table (flow.ts `floatTable`): placed where its x/y say, the text wrapping around it, and the
 * paragraphs' shared borders drawn as the frame's.
 */
import type { Block, Paragraph, Table } from '../model.ts';
import { attr, num, type XmlElement } from '../xml.ts';
import { TWIP } from './styles.ts';
import { alignAcross, alignDown } from './tables.ts';

/** Frame properties that make paragraphs one frame when equal. */
export function frameKey(framePr: XmlElement): string {
  return [...framePr.attributes]
    .map((a) => `${a.name}=${a.value}`)
    .sort()
    .join(' ');
}

/**
 * The frame's table. Without w:w the frame is as wide as its widest line (`fitsContent`); its height
 * is w:h when w:hRule says exact or at least (or gives no rule). Positions as LibreOffice 7.4 reads
 * them: from the column (hAnchor text, the default), the margins or the page across; from where the
 * frame stands in the text (vAnchor text, the default), the margins or the page down. A drop cap
 * stands at the start of the text, which wraps beside it.
 */
export function frameTable(framePr: XmlElement, blocks: Block[]): Table {
  const twips = (name: string) => (num(framePr, name) ?? 0) * TWIP;
  const paragraphs = blocks.filter((block): block is Paragraph => block.kind === 'paragraph');
  const drop = attr(framePr, 'w:dropCap') === 'drop' || attr(framePr, 'w:dropCap') === 'margin';
  const xAlign = drop ? undefined : attr(framePr, 'w:xAlign');
  const yAlign = drop ? undefined : attr(framePr, 'w:yAlign');
  const hAnchor = attr(framePr, 'w:hAnchor');
  const vAnchor = drop ? 'text' : attr(framePr, 'w:vAnchor');
  const height = twips('w:h');
  const rule = attr(framePr, 'w:hRule');
  const shared = sharedBorders(paragraphs);
  const wrap = attr(framePr, 'w:wrap');
  const [hSpace, vSpace] = [twips('w:hSpace'), twips('w:vSpace')];
  return {
    kind: 'table',
    columnWidths: [twips('w:w') || 1e4],
    fitsContent: !num(framePr, 'w:w'),
    rows: [
      {
        minHeight: height && rule !== 'auto' ? height : 0,
        exactHeight: rule === 'exact' || undefined,
        cells: [
          {
            column: 0,
            colSpan: 1,
            rowSpan: 1,
            blocks: shared ? blocks.map((b) => (b.kind === 'paragraph' ? { ...b, borders: undefined } : b)) : blocks,
            borders: shared ? { top: shared.top, right: shared.right, bottom: shared.bottom, left: shared.left } : {},
            padding: shared?.space ?? { top: 0, right: 0, bottom: 0, left: 0 },
            verticalAlign: 'top',
          },
        ],
      },
    ],
    indentLeft: 0,
    keepsWidth: true,
    align: 'left',
    float: {
      horizontal: {
        from: hAnchor === 'page' ? 'page' : 'margin',
        offset: drop ? 0 : twips('w:x'),
        align: alignAcross(xAlign),
      },
      vertical: {
        from: vAnchor === 'page' ? 'page' : vAnchor === 'margin' ? 'margin' : 'paragraph',
        offset: drop ? 0 : twips('w:y'),
        align: alignDown(yAlign),
      },
      distance: { left: hSpace, right: hSpace, top: vSpace, bottom: vSpace },
      ...(wrap === 'notBeside' || wrap === 'none' ? { noTextBeside: true } : {}),
      ...(drop ? { dropLines: Math.max(1, num(framePr, 'w:lines') ?? 3) } : {}),
    },
  };
}

/** The borders every paragraph of the frame has alike (Word draws them around the frame), if any. */
function sharedBorders(paragraphs: Paragraph[]): Paragraph['borders'] {
  const first = paragraphs[0]?.borders;
  if (!first) return undefined;
  const same = paragraphs.every((p) => JSON.stringify(p.borders) === JSON.stringify(first));
  return same ? first : undefined;
}

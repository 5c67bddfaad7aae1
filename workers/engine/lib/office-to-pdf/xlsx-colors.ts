/**
 * Excel colours as a cell's styles give them (exceljs passes them through): `argb`, a `theme`
 * index with an optional `tint`, or an `indexed` colour of the legacy 64-colour palette (which a
 * workbook may redefine in styles.xml). Theme indexes run lt1, dk1, lt2, dk2, accent1…6, hlink,
 * folHlink (Excel swaps the first two pairs against the theme's order); a tint lightens (> 0) or
 * darkens (< 0) the colour's HSL luminance (ECMA-376 Part 1, 18.8.19 and 18.8.27).
 */
import type JSZip from 'jszip';
import { fromHsl, readDrawingTheme, toHsl } from './shapes.ts';
import type { Rgb } from './model.ts';
import { attr, findAll, parseXml, zipText } from './xml.ts';

export interface ExcelColor {
  argb?: string;
  theme?: number;
  tint?: number;
  indexed?: number;
}

export interface ExcelPalette {
  theme: Array<Rgb | undefined>;
  indexed: Rgb[];
}

// Excel's 64 indexed colours, eight to a line.
// prettier-ignore
const DEFAULT_INDEXED = [
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '800000', '008000', '000080', '808000', '800080', '008080', 'C0C0C0', '808080',
  '9999FF', '993366', 'FFFFCC', 'CCFFFF', '660066', 'FF8080', '0066CC', 'CCCCFF',
  '000080', 'FF00FF', 'FFFF00', '00FFFF', '800080', '800000', '008080', '0000FF',
  '00CCFF', 'CCFFFF', 'CCFFCC', 'FFFF99', '99CCFF', 'FF99CC', 'CC99FF', 'FFCC99',
  '3366FF', '33CCCC', '99CC00', 'FFCC00', 'FF9900', 'FF6600', '666699', '969696',
  '003366', '339966', '003300', '333300', '993300', '993366', '333399', '333333',
];

function hex(value: string | undefined): Rgb | undefined {
  const digits = value?.replace(/^#/, '').slice(-6);
  if (!digits || !/^[0-9a-f]{6}$/i.test(digits)) return undefined;
  return [
    parseInt(digits.slice(0, 2), 16) / 255,
    parseInt(digits.slice(2, 4), 16) / 255,
    parseInt(digits.slice(4, 6), 16) / 255,
  ];
}

/** The workbook's theme colours and indexed palette (its own, when styles.xml redefines it). */
export async function readExcelPalette(zip: JSZip): Promise<ExcelPalette> {
  const themeXml = await zipText(zip, 'xl/theme/theme1.xml');
  const colors = readDrawingTheme(themeXml ? parseXml(themeXml) : undefined).colors;
  const theme = [
    'lt1',
    'dk1',
    'lt2',
    'dk2',
    'accent1',
    'accent2',
    'accent3',
    'accent4',
    'accent5',
    'accent6',
    'hlink',
    'folHlink',
  ].map((name) => colors[name]);
  const stylesXml = await zipText(zip, 'xl/styles.xml');
  const custom =
    stylesXml && /<indexedColors>/.test(stylesXml)
      ? findAll(parseXml(stylesXml), 'indexedColors').flatMap((list) =>
          findAll(list, 'rgbColor').map((c) => hex(attr(c, 'rgb'))),
        )
      : [];
  const indexed = DEFAULT_INDEXED.map((value, i) => custom[i] ?? hex(value)!);
  return { theme, indexed };
}

/**
 * A colour of the cell's style, or undefined for "automatic" (`indexed` 64, the system colour, and
 * anything unreadable), so that the caller's default applies.
 */
export function excelColor(color: ExcelColor | undefined, palette: ExcelPalette): Rgb | undefined {
  if (!color) return undefined;
  let rgb: Rgb | undefined;
  if (color.argb) rgb = hex(color.argb);
  else if (color.theme !== undefined) rgb = palette.theme[color.theme];
  else if (color.indexed !== undefined) rgb = color.indexed === 65 ? [1, 1, 1] : palette.indexed[color.indexed];
  if (!rgb || !color.tint) return rgb;
  const [h, s, l] = toHsl(rgb);
  return fromHsl([h, s, color.tint < 0 ? l * (1 + color.tint) : l + (1 - l) * color.tint]);
}

/**
 * Draws Folio's brand images into public/: the 160-px header logo (/logo.png, drawn at 2× for sharp
 * screens), the PWA icons (192, 512, maskable 512), an apple-touch icon and a PNG favicon.
 * Run once with `npx tsx scripts/make-brand-assets.ts`; the small PNGs it writes are committed.
 * The mark is an SVG drawn here; the word "Folio" is set in Liberation Sans Bold (Debian's
 * fonts-liberation) and rasterised, so the app itself needs no font.
 */
import { writeFileSync } from 'node:fs';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';

const BRAND = '#1f4fd1';
const INK = '#111827';

/** The mark: a blue rounded square with a white page, a folded corner and three text lines. */
function markSvg(size: number, { bleed = false }: { bleed?: boolean } = {}): string {
  // For a maskable icon the background fills the square and the page sits in the central safe zone.
  const page = bleed ? '<g transform="translate(6.4 6.4) scale(0.8)">' : '<g>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#2f63f0"/><stop offset="1" stop-color="#3a2fb8"/>
  </linearGradient></defs>
  ${bleed ? '<rect width="64" height="64" fill="url(#g)"/>' : '<rect width="64" height="64" rx="15" fill="url(#g)"/>'}
  ${page}
    <path d="M19 12h19l9 9v31H19z" fill="#fff"/>
    <path d="M38 12v9h9z" fill="#c7d5ff"/>
    <path d="M25 31h16M25 37.5h16M25 44h10" stroke="${BRAND}" stroke-width="3.2" stroke-linecap="round"/>
  </g>
</svg>`;
}

async function png(svg: string, size: number, file: string) {
  const image = await loadImage(Buffer.from(svg));
  const canvas = createCanvas(size, size);
  canvas.getContext('2d').drawImage(image, 0, 0, size, size);
  writeFileSync(file, canvas.toBuffer('image/png'));
}

async function logo() {
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf', 'FolioWordmark');
  const scale = 2;
  const width = 160 * scale;
  const height = 40 * scale;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const mark = await loadImage(Buffer.from(markSvg(height)));
  ctx.drawImage(mark, 0, 0, height, height);
  ctx.fillStyle = INK;
  ctx.font = `${29 * scale}px FolioWordmark`;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText('Folio', height + 9 * scale, 30.5 * scale);
  writeFileSync('public/logo.png', canvas.toBuffer('image/png'));
}

await logo();
await png(markSvg(192), 192, 'public/icons/icon-192.png');
await png(markSvg(512), 512, 'public/icons/icon-512.png');
await png(markSvg(512, { bleed: true }), 512, 'public/icons/icon-maskable-512.png');
await png(markSvg(180, { bleed: true }), 180, 'public/apple-touch-icon.png');
await png(markSvg(32), 32, 'public/favicon-32.png');
writeFileSync('public/favicon.svg', markSvg(64).replace(/ width="64" height="64"/, ''));
console.log(
  'wrote public/logo.png, icons/icon-192.png, icons/icon-512.png, icons/icon-maskable-512.png, ' +
    'apple-touch-icon.png, favicon-32.png, favicon.svg',
);

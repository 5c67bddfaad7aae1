/**
 * npm run bench — prints figures (time, pages/s, bytes, peak memory) beside native reference tools
 * (qpdf, pdftoppm, gs, cjpeg, soffice) when they are installed. Each area of the app has one
 * section in bench/sections/<name>.ts exporting `run(): Promise<void>`; `npm run bench -- merge`
 * runs only the sections whose file name contains "merge".
 */
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const filter = process.argv[2];
const dir = resolve(import.meta.dirname, 'sections');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && (!filter || f.includes(filter)))
  .sort();
if (files.length === 0) console.log(`No bench sections${filter ? ` matching "${filter}"` : ''}.`);
for (const file of files) {
  console.log(`\n=== ${file.replace(/\.ts$/, '')} ===`);
  const section = (await import(pathToFileURL(resolve(dir, file)).href)) as { run: () => Promise<void> };
  await section.run();
}

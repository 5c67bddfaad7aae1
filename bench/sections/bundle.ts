/**
 * First-load weight: the JavaScript the first route needs (the entry chunk and the chunks it
 * imports statically, as listed by index.html's module script and modulepreload links), gzipped.
 * Goal ≤ 120 KB gzip. Reads dist/ (run `npm run build` first); also lists the largest lazy chunks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fmtBytes } from '../lib.ts';

export async function run(): Promise<void> {
  const dist = resolve(import.meta.dirname, '../../dist');
  if (!existsSync(join(dist, 'index.html'))) {
    console.log('dist/ is missing: run `npm run build` first.');
    return;
  }
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const firstLoad = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  let total = 0;
  for (const file of firstLoad) {
    const gz = gzipSync(readFileSync(join(dist, file))).length;
    total += gz;
    console.log(`first load  ${file}  ${fmtBytes(gz)} gzip`);
  }
  console.log(
    `first route JS: ${fmtBytes(total)} gzip (goal ≤ 120 KB) — ${total <= 120 * 1024 ? 'within' : 'OVER'} the goal`,
  );

  const lazy: Array<{ file: string; gz: number }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.js') || name.endsWith('.wasm'))
        lazy.push({ file: path.slice(dist.length + 1), gz: gzipSync(readFileSync(path)).length });
    }
  };
  walk(join(dist, 'assets'));
  lazy.sort((a, b) => b.gz - a.gz);
  console.log('largest lazy chunks (loaded only by the tools that need them):');
  for (const { file, gz } of lazy.filter((l) => !firstLoad.includes(l.file)).slice(0, 8))
    console.log(`  ${file}  ${fmtBytes(gz)} gzip`);
}

/** Precompressed copies of the build (build/precompress.ts) and the choice of encoding per request. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { chooseEncoding, isPrecompressedCopy, precompressDirectory } from '../../build/precompress.ts';

const dir = mkdtempSync(join(tmpdir(), 'folio-precompress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precompress', () => {
  test('writes .br and .gz beside compressible files that are big enough, byte-identical once decoded', async () => {
    mkdirSync(join(dir, 'assets'));
    const script = `export const text = ${JSON.stringify('Folio keeps files on the device. '.repeat(400))};\n`;
    writeFileSync(join(dir, 'assets', 'engine.js'), script);
    writeFileSync(join(dir, 'tiny.js'), 'export {};\n');
    writeFileSync(join(dir, 'lang.traineddata.gz'), Buffer.alloc(4096, 7));
    writeFileSync(join(dir, 'photo.png'), Buffer.alloc(4096, 1));
    const { files, rawBytes, brotliBytes } = await precompressDirectory(dir, null);
    expect(files).toBe(1);
    expect(brotliBytes).toBeLessThan(rawBytes / 5);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'engine.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'engine.js.gz'))).toString()).toBe(script);
    // Too small, already compressed, or not compressible: left alone.
    for (const name of ['tiny.js.br', 'lang.traineddata.gz.br', 'photo.png.br', 'photo.png.gz'])
      expect(existsSync(join(dir, name))).toBe(false);
    expect(isPrecompressedCopy(join(dir, 'assets', 'engine.js.br'))).toBe(true);
    expect(isPrecompressedCopy(join(dir, 'lang.traineddata.gz'))).toBe(false);
  });

  test('a second build takes identical files from the cache, byte for byte', async () => {
    const build = join(dir, 'cached-build');
    const cache = join(dir, 'cache');
    mkdirSync(build);
    const script = `export const text = ${JSON.stringify('Cached once, reused after. '.repeat(300))};\n`;
    writeFileSync(join(build, 'engine.js'), script);
    expect((await precompressDirectory(build, cache)).cached).toBe(0);
    rmSync(join(build, 'engine.js.br'));
    const second = await precompressDirectory(build, cache);
    expect(second.cached).toBe(1);
    expect(brotliDecompressSync(readFileSync(join(build, 'engine.js.br'))).toString()).toBe(script);
    writeFileSync(join(build, 'engine.js'), `${script}// changed\n`);
    expect((await precompressDirectory(build, cache)).cached).toBe(0);
  });

  test('brotli when the browser takes it, else gzip, else the file itself', () => {
    const file = join(dir, 'assets', 'engine.js');
    expect(chooseEncoding('gzip, deflate, br, zstd', file)).toBe('br');
    expect(chooseEncoding('gzip, deflate', file)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', file)).toBe('gzip');
    expect(chooseEncoding(undefined, file)).toBeUndefined();
    expect(chooseEncoding('identity', file)).toBeUndefined();
    expect(chooseEncoding('br', join(dir, 'tiny.js'))).toBeUndefined();
  });
});

/**
 * OCR languages beyond English: German recognised through the /api contract (the `ocrLanguage` field
 * reaches the engine), unknown codes refused with a clear message (by the /api and by the engine),
 * Cancel while the language data loads, and the one language list kept in step with node_modules,
 * the build plugin, package.json and the catalogue.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiServer } from '../../mock-api/node.ts';
import { assetMap } from '../../build/tesseract-assets.ts';
import { OCR_LANGUAGES, OCR_MODEL, ocrLanguageUrl } from '../../shared/ocr-languages.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import { run as toWord } from '../../workers/engine/tools/pdf-to-word.ts';
import { readDocx } from '../support/office-fixtures.ts';
import { GERMAN_WORDS, buildGermanScan } from '../support/ocr-fixtures.ts';

const server = createApiServer();
let scan: { bytes: Uint8Array; text: string };
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  scan = await buildGermanScan();
}, 60_000);
afterAll(() => server.close());

async function postToWord(fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([scan.bytes as Uint8Array<ArrayBuffer>], 'scan.pdf', { type: 'application/pdf' }));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return fetch('http://folio.test/api/pdf/toWord', { method: 'POST', body: form });
}

describe('OCR in other languages', () => {
  test('German through /api/pdf/toWord (ocr=true, ocrLanguage=deu): the umlaut words come back', async () => {
    const response = await postToWord({ ocr: 'true', ocrLanguage: 'deu' });
    expect(response.status).toBe(200);
    const docx = await readDocx(new Uint8Array(await response.arrayBuffer()));
    console.log(`[ocr] German scan read as: ${docx.text}`);
    for (const word of GERMAN_WORDS) expect(docx.text).toContain(word);
    const notes = JSON.parse(decodeURIComponent(response.headers.get('X-Folio-Notes') ?? '[]')) as string[];
    expect(notes.join(' ')).toMatch(/OCR, German/);
  }, 120_000);

  test('an unknown language is refused by /api with the choices', async () => {
    const response = await postToWord({ ocr: 'true', ocrLanguage: 'klingon' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; code: string };
    expect(body.code).toBe('InvalidInput');
    expect(body.error).toMatch(/"klingon" is not one of eng, deu, fra/);
  });

  test('an unknown language is refused by the engine itself, before any work, with a clear message', async () => {
    const progress: number[] = [];
    const job = toWord(
      [{ name: 'scan.pdf', bytes: scan.bytes }],
      { ocr: true, ocrLanguage: 'xx' },
      { progress: (done) => progress.push(done) },
    );
    await expect(job).rejects.toMatchObject({
      name: 'InvalidInput',
      message: expect.stringMatching(
        /OCR language "xx" is not available\. Choose one of: eng \(English\), deu \(German\)/,
      ),
    });
    expect(progress).toEqual([]);
    // Without OCR the language is not used, so it is not checked either.
    await expect(
      toWord([{ name: 'scan.pdf', bytes: scan.bytes }], { ocr: false, ocrLanguage: 'xx' }, {}),
    ).resolves.toBeDefined();
  });

  test('while the language data loads the progress line says so, and Cancel stops at once', async () => {
    const controller = new AbortController();
    const statuses: string[] = [];
    let abortedAt = 0;
    const job = toWord(
      [{ name: 'scan.pdf', bytes: scan.bytes }],
      { ocr: true, ocrLanguage: 'fra' },
      {
        signal: controller.signal,
        progress: (_done, _total, status) => {
          if (!status) return;
          statuses.push(status);
          abortedAt = performance.now();
          controller.abort();
        },
      },
    );
    await expect(job).rejects.toMatchObject({ name: 'Cancelled' });
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(statuses).toEqual(['Loading French text recognition…']);
  }, 30_000);
});

describe('the language list', () => {
  const packageJson = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };

  test('matches the @tesseract.js-data packages in package.json and the files on disk (sizes included)', () => {
    const installed = Object.keys(packageJson.dependencies)
      .filter((name) => name.startsWith('@tesseract.js-data/'))
      .sort();
    expect(OCR_LANGUAGES.map((l) => l.package).sort()).toEqual(installed);
    for (const language of OCR_LANGUAGES) {
      expect(language.package).toBe(`@tesseract.js-data/${language.code}`);
      const file = resolve('node_modules', language.package, OCR_MODEL, `${language.code}.traineddata.gz`);
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size, language.code).toBe(language.bytes);
    }
    expect(OCR_LANGUAGES.filter((l) => l.bundled).map((l) => l.code)).toEqual(['eng']);
  });

  test('the build plugin copies every language (and only those) to /engine-data/tesseract/lang/', () => {
    const map = assetMap();
    const langFiles = [...map.keys()].filter((url) => url.startsWith('/lang/'));
    expect(langFiles.sort()).toEqual(
      OCR_LANGUAGES.map((l) => ocrLanguageUrl(l.code).replace('/engine-data/tesseract', '')).sort(),
    );
    for (const [url, file] of map) expect(existsSync(file), `${url} → ${file}`).toBe(true);
  });

  test('the three office exports offer every language, English first and by default, only when OCR is ticked', () => {
    for (const id of ['pdf-to-word', 'pdf-to-ppt', 'pdf-to-excel']) {
      const spec = fileTools.find((t) => t.id === id)?.options.find((o) => o.name === 'ocrLanguage');
      expect(spec?.kind, id).toBe('select');
      if (spec?.kind !== 'select') continue;
      expect(spec.default).toBe('eng');
      expect(spec.showWhen).toEqual({ option: 'ocr', equals: ['true'] });
      expect(spec.choices.map((c) => c.value)).toEqual(OCR_LANGUAGES.map((l) => l.code));
      expect(spec.choices[0].label).toBe('English (included)');
      expect(spec.choices.find((c) => c.value === 'deu')?.label).toBe('German — 1.3 MB download, once');
    }
  });
});

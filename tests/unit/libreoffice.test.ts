/**
 * The optional LibreOffice engine's plumbing in Node (LibreOffice itself runs only in the browser:
 * tests/e2e/libreoffice.test.ts): the build plugin's glue patch (applied, and a build error when the
 * pattern is gone), the host worker transpiled to a classic script, the `engine` option of the three
 * Office tools, which files go to LibreOffice, and clear refusals where it cannot run.
 */
import { describe, expect, test } from 'vitest';
import { Document, Packer, Paragraph } from 'docx';
import {
  NO_INITIAL_RUN_PATTERN,
  POOL_PATTERN,
  isLibreOfficeWorkerScript,
  libreOfficeFiles,
  libreOfficeWorkerCsp,
  patchGlue,
  transpileHost,
} from '../../build/libreoffice-assets.ts';
import { compressionLevels } from '../../build/precompress.ts';
import { LIBREOFFICE_BASE, LIBREOFFICE_DOWNLOAD_BYTES } from '../../shared/libreoffice-files.ts';
import {
  NOT_ISOLATED,
  convertWithLibreOffice,
  libreOfficeUnavailable,
} from '../../workers/engine/lib/libreoffice/libreoffice.ts';
import { libreOfficeReason } from '../../workers/engine/lib/libreoffice/libreoffice-office.ts';
import { oleKind } from '../../workers/engine/lib/office-to-pdf/sniff.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { getTool } from '../../src/catalogue/index.ts';
import type { FileToolEntry } from '../../src/catalogue/types.ts';

/**
 * A minimal OLE compound file header followed by directory entry names (UTF-16LE), as legacy Office files hold them.
 */
function ole(...streams: string[]): Uint8Array {
  const names = streams.map((s) => Array.from(s).flatMap((c) => [c.charCodeAt(0), 0]));
  return Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0), ...names.flat()]);
}

describe('build plugin', () => {
  test('patches the pthread pool of the glue from 4 to 32, and fails the build when the line is gone or doubled', () => {
    const glue = `a();initMainThread(){${POOL_PATTERN};while(pthreadPoolSize--){}}b();${NO_INITIAL_RUN_PATTERN}run();`;
    expect(patchGlue(glue)).toBe(
      `a();initMainThread(){var pthreadPoolSize=32;while(pthreadPoolSize--){}}b();${NO_INITIAL_RUN_PATTERN}run();`,
    );
    expect(() => patchGlue(`initMainThread(){var pthreadPoolSize=8;}${NO_INITIAL_RUN_PATTERN}`)).toThrow(
      /expected "var pthreadPoolSize=4" once .* found it 0 times/,
    );
    expect(() => patchGlue(`${POOL_PATTERN};${POOL_PATTERN}`)).toThrow(/found it 2 times/);
  });

  test(
    "fails the build when the glue no longer honours noInitialRun (LibreOffice's own main() would run beside " +
      'LibreOfficeKit)',
    async () => {
      expect(() => patchGlue(`${POOL_PATTERN};var shouldRunNow=true;run();`)).toThrow(
        /noInitialRun.* found it 0 times/,
      );
      expect((await transpileHost()).replace(/\s+/g, ' ')).toMatch(/noInitialRun: true/);
    },
  );

  test('the installed package: patched glue, sizes, and a revision that changes with the files', async () => {
    const { generated, copied, revision } = await libreOfficeFiles();
    expect(generated.get('soffice.js')).toContain('var pthreadPoolSize=32');
    expect(generated.get('soffice.js')).not.toContain(POOL_PATTERN);
    const sizes = JSON.parse(generated.get('sizes.json')!) as { wasm: number; data: number };
    expect(sizes.wasm).toBeGreaterThan(100e6);
    expect(sizes.data).toBeGreaterThan(50e6);
    // The one figure the labels use (catalogue select, error message, About page).
    expect(sizes.wasm + sizes.data).toBe(LIBREOFFICE_DOWNLOAD_BYTES);
    expect([...copied.keys()].sort()).toEqual(['soffice.data', 'soffice.wasm']);
    expect(revision).toMatch(/^[0-9a-f]{10}$/);
  });

  test('the host worker is transpiled to a classic script: no types, no import/export', async () => {
    const code = await transpileHost();
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
    expect(code).not.toMatch(/\binterface\b|: LokModule/);
    expect(code).toContain('importScripts');
    // Parses as a classic script (new Function throws on module syntax or leftover types).
    expect(() => new Function(code)).not.toThrow();
  });

  test("only LibreOffice's worker scripts get the relaxed CSP, and it allows eval but fetches nothing", () => {
    expect(isLibreOfficeWorkerScript(`${LIBREOFFICE_BASE}soffice.js`)).toBe(true);
    expect(isLibreOfficeWorkerScript(`${LIBREOFFICE_BASE}lo-host.js`)).toBe(true);
    expect(isLibreOfficeWorkerScript(`${LIBREOFFICE_BASE}soffice.wasm`)).toBe(false);
    expect(isLibreOfficeWorkerScript('/assets/engine/engine.worker-abc.js')).toBe(false);
    expect(libreOfficeWorkerCsp()).toMatch(/script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'/);
    expect(libreOfficeWorkerCsp()).toMatch(/default-src 'none'/);
  });

  test('huge files are compressed at lower levels', () => {
    expect(compressionLevels(147_000_000)).toEqual({ brotliQuality: 5, gzipLevel: 6 });
    expect(compressionLevels(10_000_000)).toEqual({ brotliQuality: 5, gzipLevel: 9 });
    expect(compressionLevels(100_000)).toEqual({ brotliQuality: 9, gzipLevel: 9 });
  });
});

describe('engine option and routing', () => {
  test('the three Office tools offer Engine: Folio (default) or LibreOffice, and accept the legacy formats', () => {
    for (const [id, legacy] of [
      ['word-to-pdf', '.doc'],
      ['excel-to-pdf', '.xls'],
      ['ppt-to-pdf', '.ppt'],
    ] as const) {
      const tool = getTool(id) as FileToolEntry;
      const engine = tool.options.find((o) => o.name === 'engine');
      expect(engine, id).toMatchObject({ kind: 'select', default: 'folio' });
      expect((engine as unknown as { choices: Array<{ value: string }> }).choices.map((c) => c.value)).toEqual([
        'folio',
        'libreoffice',
      ]);
      expect(tool.accepts.extensions).toContain(legacy);
    }
  });

  test('legacy binary files go to LibreOffice whatever is chosen; encrypted ones and other formats do not', () => {
    const input = (bytes: Uint8Array) => ({ name: 'x', bytes });
    expect(oleKind(ole('WordDocument'))).toBe('docx');
    expect(oleKind(ole('Workbook'))).toBe('xlsx');
    expect(oleKind(ole('PowerPoint Document'))).toBe('pptx');
    expect(oleKind(ole('EncryptionInfo', 'EncryptedPackage'))).toBe('encrypted');
    expect(libreOfficeReason(input(ole('WordDocument')), { engine: 'folio' }, 'docx')).toBe('legacy');
    expect(libreOfficeReason(input(ole('Workbook')), {}, 'xlsx')).toBe('legacy');
    expect(libreOfficeReason(input(ole('EncryptionInfo')), { engine: 'libreoffice' }, 'docx')).toBeUndefined();
    // an .xls given to Word: the sniffer says which tool
    expect(libreOfficeReason(input(ole('Workbook')), { engine: 'libreoffice' }, 'docx')).toBeUndefined();
    expect(libreOfficeReason(input(Uint8Array.from([0x50, 0x4b])), { engine: 'libreoffice' }, 'docx')).toBe('chosen');
    expect(libreOfficeReason(input(Uint8Array.from([0x50, 0x4b])), { engine: 'folio' }, 'docx')).toBeUndefined();
  });
});

describe('clear refusals where LibreOffice cannot run', () => {
  test('not cross-origin isolated, too little memory, Node', () => {
    expect(libreOfficeUnavailable({ crossOriginIsolated: false }, false)).toBe(NOT_ISOLATED);
    expect(libreOfficeUnavailable({}, false)).toBe(NOT_ISOLATED);
    expect(libreOfficeUnavailable({ crossOriginIsolated: true, navigator: { deviceMemory: 2 } }, false)).toMatch(
      /needs about 2\.5 GB of memory, and this device reports 2 GB/,
    );
    expect(
      libreOfficeUnavailable({ crossOriginIsolated: true, navigator: { deviceMemory: 8 } }, false),
    ).toBeUndefined();
    expect(libreOfficeUnavailable({ crossOriginIsolated: true, navigator: {} }, false)).toBeUndefined();
    expect(libreOfficeUnavailable()).toMatch(/browser only/);
  });

  test('Engine = LibreOffice in Node: a named NotImplemented error, not a crash', async () => {
    const docx = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Hello')] }] })),
    );
    await expect(convertWithLibreOffice({ name: 'a.docx', bytes: docx }, {})).rejects.toMatchObject({
      name: 'NotImplemented',
      message: expect.stringMatching(/browser only/),
    });
    await expect(wordToPdf([{ name: 'a.docx', bytes: docx }], { engine: 'libreoffice' }, {})).rejects.toMatchObject({
      name: 'NotImplemented',
    });
    // The built-in engine is untouched.
    expect((await wordToPdf([{ name: 'a.docx', bytes: docx }], { engine: 'folio' }, {})).mime).toBe('application/pdf');
  });

  test('legacy .doc/.xls/.ppt where LibreOffice cannot run: says why and what to do', async () => {
    await expect(wordToPdf([{ name: 'old.doc', bytes: ole('WordDocument') }], {}, {})).rejects.toThrow(
      /"old\.doc" is an old-style \.doc file, which only the LibreOffice engine reads, and it cannot run here: .*browser only.* save the file as \.docx/,
    );
    await expect(excelToPdf([{ name: 'old.xls', bytes: ole('Workbook') }], {}, {})).rejects.toThrow(
      /old-style \.xls file.*save the file as \.xlsx/,
    );
    await expect(pptToPdf([{ name: 'old.ppt', bytes: ole('PowerPoint Document') }], {}, {})).rejects.toThrow(
      /old-style \.ppt file.*save the file as \.pptx/,
    );
    await expect(wordToPdf([{ name: 'old.xls', bytes: ole('Workbook') }], {}, {})).rejects.toThrow(
      /old-style \.xls file: use the Excel to PDF tool/,
    );
    // A password-protected file is decrypted before either engine sees it: this one's container is not readable.
    await expect(
      wordToPdf([{ name: 'locked.docx', bytes: ole('EncryptionInfo') }], { engine: 'libreoffice' }, {}),
    ).rejects.toThrow(/"locked\.docx" is damaged: its password-protected container could not be read/);
  });
});

/**
 * A fallback font that cannot be loaded (the device went offline before the font's first use: it
 * is not in the core offline set) does not fail the conversion: its characters are printed as "?"
 * and the note says which font is missing and what to do.
 */
import { expect, test, vi } from 'vitest';
import { Document, Packer, Paragraph } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerText } from '../support/pdf.ts';

vi.mock('../../workers/engine/lib/assets.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../workers/engine/lib/assets.ts')>();
  return {
    ...original,
    loadPackageAsset: (url: string, specifier: string) =>
      specifier.includes('noto-sans-kr')
        ? Promise.reject(new Error(`Could not load ${specifier} (offline)`))
        : original.loadPackageAsset(url, specifier),
  };
});

test('Korean text while the Korean font cannot be downloaded: "?" and a note naming the font', async () => {
  const docx = new Document({ sections: [{ children: [new Paragraph('Name 김민수 done')] }] });
  const result = await convert(wordToPdf, 'offline.docx', await Packer.toBuffer(docx));
  expect(popplerText(result.bytes)).toContain('Name ??? done');
  const note = result.notes?.find((n) => /printed as "\?"/.test(n));
  expect(note).toContain('Korean (Hangul): 김 민 수');
  expect(note).toContain('the Korean font could not be downloaded');
});

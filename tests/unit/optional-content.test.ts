/**
 * Layers hidden by default stay hidden through the tools that assemble pages on qpdf (merge, split,
 * organize with pages left out): qpdf's `--empty --pages` copies the layers but not the catalog's
 * /OCProperties, and a reader then draws every layer (found by the quality sweep, docs/quality-sweep.md).
 * Judged by poppler: each output page draws as its source page does.
 */
import { describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { run as merge } from '../../workers/engine/tools/merge-pdf.ts';
import { run as split } from '../../workers/engine/tools/split-pdf.ts';
import { run as organize } from '../../workers/engine/tools/organize-pdf.ts';
import { PageCopier } from '../../workers/engine/lib/pdf/page-copy.ts';
import { PDFDocument } from 'pdf-lib';
import { blockSsim, decodeImage, pdftoppmPng, popplerPresent, type Raster } from '../support/images.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { layeredPdf } from '../support/layer-fixtures.ts';

let scratch: string | undefined;
function render(bytes: Uint8Array, page: number): Promise<Raster> {
  scratch ??= mkdtempSync(join(tmpdir(), 'folio-layers-'));
  const path = join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  try {
    return decodeImage(pdftoppmPng(path, page, 36));
  } finally {
    rmSync(path);
  }
}

/** Output page `outPage` draws as source page `sourcePage`: the hidden band absent, the shown square there. */
async function expectDrawnAsSource(output: Uint8Array, outPage: number, source: Uint8Array, sourcePage: number) {
  expect((await qpdfCheck(output)).ok).toBe(true);
  expect(new TextDecoder('latin1').decode(output)).not.toContain('FolioLayer');
  const [got, want] = [await render(output, outPage), await render(source, sourcePage)];
  expect([got.width, got.height]).toEqual([want.width, want.height]);
  expect(blockSsim(got, want)).toBeGreaterThan(0.99);
}

describe.skipIf(!popplerPresent())('layers hidden by default stay hidden', () => {
  test('the fixture: poppler hides the Answers band and shows the Notes square', async () => {
    const page = await render(await layeredPdf(), 1);
    const pixel = (x: number, y: number) => [
      ...page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3),
    ];
    expect(pixel(20, 140)).toEqual([255, 255, 255]); // where the hidden red band would be (36 dpi: half size)
    expect(pixel(110, 40)).toEqual([0, 0, 255]);
  });

  test("pdf-lib's page copier (the path for sources qpdf cannot assemble), two sources", async () => {
    const [plain, offList] = [await layeredPdf({ baseStateOff: true }), await layeredPdf()];
    const dest = await PDFDocument.create();
    for (const source of [plain, offList]) {
      const copier = new PageCopier(await PDFDocument.load(source), dest);
      copier.appendPages([0, 1], new Set([0, 1]));
      copier.copyLayers();
    }
    const bytes = await dest.save();
    await expectDrawnAsSource(bytes, 1, plain, 1);
    await expectDrawnAsSource(bytes, 3, offList, 1);
  });

  for (const baseStateOff of [false, true]) {
    const how = baseStateOff ? '/BaseState /OFF' : '/OFF list';
    test(`merge (${how})`, async () => {
      const source = await layeredPdf({ baseStateOff });
      const other = await labelledPdf('B', 1);
      const result = await merge(
        [
          { name: 'b.pdf', bytes: other },
          { name: 'layers.pdf', bytes: source },
        ],
        {},
        {},
      );
      await expectDrawnAsSource(result.bytes, 2, source, 1);
      await expectDrawnAsSource(result.bytes, 3, source, 2);
    });

    test(`split, every page (${how})`, async () => {
      const source = await layeredPdf({ baseStateOff });
      const result = await split([{ name: 'layers.pdf', bytes: source }], { mode: 'each' }, {});
      const zip = await JSZip.loadAsync(result.bytes);
      const names = Object.keys(zip.files).sort();
      expect(names).toHaveLength(2);
      await expectDrawnAsSource(await zip.files[names[0]].async('uint8array'), 1, source, 1);
    });

    test(`organize, a page left out and a blank added (${how})`, async () => {
      const source = await layeredPdf({ baseStateOff });
      const result = await organize([{ name: 'layers.pdf', bytes: source }], { pageOrder: 'blank,1' }, {});
      await expectDrawnAsSource(result.bytes, 2, source, 1);
    });
  }
});

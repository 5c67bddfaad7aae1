/**
 * Loops in a PDF's object graph (issue #21): a page tree whose /Parent chain or /Kids list loops,
 * a negative /Count, bookmarks and name trees that loop, form XObjects that draw themselves. Every
 * PDF tool must answer with a valid output (the tree rebuilt: lib/pdf/page-tree.ts) or a named
 * "damaged" error — never a stack overflow — and a small job must work afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { checkPageTree } from '../../workers/engine/lib/pdf/page-tree.ts';
import { expectClearAnswer, expectRefused, expectSmallJobWorks, post, startApi } from './harness.ts';
import {
  kidsLoopPdf,
  kidsLoopWithoutPagesPdf,
  negativeCountPdf,
  outlineLoopPdf,
  parentLoopPdf,
  xobjectLoopPdf,
} from '../support/hostile-recipes.ts';

let api: { close(): void };
beforeAll(() => {
  api = startApi();
});
afterAll(() => api.close());

const TOOLS: Array<[string, string, Record<string, string>]> = [
  ['/api/pdf/merge', 'files', {}],
  ['/api/pdf/split', 'file', {}],
  ['/api/pdf/compress', 'file', {}],
  ['/api/pdf/rotate', 'file', {}],
  ['/api/pdf/organize', 'file', { pageOrder: '1, blank' }],
  ['/api/pdf/watermark', 'file', { text: 'DRAFT' }],
  ['/api/pdf/toJpg', 'file', {}],
  ['/api/pdf/toWord', 'file', {}],
  ['/api/pdf/protect', 'file', { password: 'abcd' }],
];

const RECIPES: Array<[string, () => Uint8Array]> = [
  ['a /Parent loop', parentLoopPdf],
  ['a /Kids loop', kidsLoopPdf],
  ['a negative /Count', negativeCountPdf],
  ['looping bookmarks and name tree', outlineLoopPdf],
  ['self-drawing form XObjects', xobjectLoopPdf],
];

describe.each(RECIPES)('a PDF with %s', (_, recipe) => {
  test.each(TOOLS)('%s gives a valid output or a named error', async (endpoint, field, fields) => {
    const answer = await post(endpoint, [[field, 'hostile.pdf', recipe()]], fields);
    await expectClearAnswer(answer, { withinMs: 20_000, password: fields.password });
  });

  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('page tree repair', () => {
  test('a /Kids loop is rebuilt to the pages really there, each once', async () => {
    const answer = await post('/api/pdf/rotate', [['file', 'kids.pdf', kidsLoopPdf()]]);
    expect(answer.status).toBe(200);
    const doc = await PDFDocument.load(answer.bytes!);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getRotation().angle).toBe(90);
  });

  test('a /Parent loop with no page size gets the size readers assume (US Letter)', async () => {
    const answer = await post('/api/pdf/split', [['file', 'parent.pdf', parentLoopPdf()]]);
    expect(answer.status).toBe(200);
    const doc = await PDFDocument.load(answer.bytes!);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });

  test('a negative /Count becomes the real count', async () => {
    const answer = await post('/api/pdf/organize', [['file', 'neg.pdf', negativeCountPdf()]], {
      pageOrder: '1, blank, 1',
    });
    expect(answer.status).toBe(200);
    expect((await PDFDocument.load(answer.bytes!)).getPageCount()).toBe(3);
  });
});

describe('protect-pdf on a /Kids loop (qpdf alone stops with "Loop detected in /Pages structure")', () => {
  test('the tree is rebuilt, then encrypted: the unlocked output has its one page, no loop, its text', async () => {
    const answer = await post('/api/pdf/protect', [['file', 'kids.pdf', kidsLoopPdf()]], { password: 'abcd' });
    expect(answer.status, answer.error?.error).toBe(200);
    const unlocked = await post('/api/pdf/unlock', [['file', 'kids-protected.pdf', answer.bytes!]], {
      password: 'abcd',
    });
    expect(unlocked.status, unlocked.error?.error).toBe(200);
    const doc = await PDFDocument.load(unlocked.bytes!);
    expect(checkPageTree(doc, 'unlocked.pdf').problems).toEqual([]);
    expect(doc.getPageCount()).toBe(1);
    const text = await post('/api/pdf/toWord', [['file', 'unlocked.pdf', unlocked.bytes!]]);
    expect(text.status).toBe(200);
  });

  test("a tree that is only a loop, with no page, is a damaged file naming the tree's object", async () => {
    for (const endpoint of ['/api/pdf/protect', '/api/pdf/rotate']) {
      const answer = await post(endpoint, [['file', 'empty-loop.pdf', kidsLoopWithoutPagesPdf()]], {
        password: 'abcd',
      });
      expectRefused(
        answer,
        ['DamagedPdf'],
        /"empty-loop\.pdf" is damaged: its page tree \(object 2 0\) only loops back on itself/,
      );
    }
  });
});

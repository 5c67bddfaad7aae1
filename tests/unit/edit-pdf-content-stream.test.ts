/** The content-stream tokenizer/writer behind redaction, and redaction of forms and inline images. */
import { expect, test } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  operandMatrix,
  parseContentStream,
  readOperations,
  rewriteContentStream,
  serializeOperand,
} from '../../workers/engine/lib/pdf/content-stream.ts';
import { run } from '../../workers/engine/tools/edit-pdf.ts';
import { allText, decompressed, rawContains } from '../support/edit-pdf-fixtures.ts';
import { qpdfCheck } from '../support/pdf.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

test('operators, operands, strings with escapes, arrays, dicts, comments and inline images', () => {
  const src = bytes(
    'q 1 0 0 1 10 20 cm % a comment\nBT /F1 12 Tf (a\\(b\\)c\\101\\\nd) Tj [(x) -250 <4142>] TJ ET\n/Span ' +
      '<</ActualText (hi)>> BDC EMC\nBI /W 2 /H 1 /BPC 8 /CS /G ID \x00EI\xff EI Q .5 -.25 d0',
  );
  const ops = parseContentStream(src);
  expect(ops.map((o) => o.operator)).toEqual(['q', 'cm', 'BT', 'Tf', 'Tj', 'TJ', 'ET', 'BDC', 'EMC', 'BI', 'Q', 'd0']);
  const tj = ops[4].operands[0];
  expect(tj.kind === 'string' && String.fromCharCode(...tj.bytes)).toBe('a(b)cAd');
  const array = ops[5].operands[0];
  expect(array.kind === 'array' && array.items.map((i) => i.kind)).toEqual(['string', 'number', 'string']);
  expect(serializeOperand(array)).toBe('[<78> -250 <4142>]');
  expect(ops[7].operands[1].kind).toBe('dict');
  expect(ops[9].inlineImage?.get('W')).toEqual({ kind: 'number', value: 2 });
  expect(ops[11].operands.map((o) => (o.kind === 'number' ? o.value : NaN))).toEqual([0.5, -0.25]);
  // Untouched operations are written back byte for byte; a replaced one is written fresh.
  const out = rewriteContentStream(src, ops, new Map([[ops[4], '']]));
  const text = String.fromCharCode(...out);
  expect(text).not.toContain('a\\(b');
  expect(text).toContain('BI /W 2 /H 1 /BPC 8 /CS /G ID \x00EI\xff EI');
  expect(parseContentStream(out).map((o) => o.operator)).toEqual([
    'q',
    'cm',
    'BT',
    'Tf',
    'TJ',
    'ET',
    'BDC',
    'EMC',
    'BI',
    'Q',
    'd0',
  ]);
});

test('redaction reaches text inside form XObjects and inline images', async () => {
  const source = await PDFDocument.create();
  const font = await source.embedFont(StandardFonts.Helvetica);
  source.addPage([300, 100]).drawText('FORMSECRET', { x: 10, y: 40, size: 20, font });
  const doc = await PDFDocument.create();
  const embedded = await doc.embedPage(source.getPage(0));
  const page = doc.addPage([612, 792]);
  // The form drawn at (100, 600): its text lands at (110, 640) on the page.
  page.drawPage(embedded, { x: 100, y: 600 });
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Visible words', { x: 100, y: 500, size: 14, font: helvetica });
  // An inline image, written by hand.
  const { PDFName, PDFArray } = await import('pdf-lib');
  const extra = doc.context.stream('q 50 0 0 50 100 300 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q');
  const contents = page.node.lookup(PDFName.of('Contents'));
  const ref = doc.context.register(extra);
  if (contents instanceof PDFArray) contents.push(ref);
  else page.node.set(PDFName.of('Contents'), doc.context.obj([page.node.get(PDFName.of('Contents'))!, ref]));
  const input = await doc.save();
  expect(await allText(input)).toContain('FORMSECRET');

  const operations = [
    { type: 'redact', page: 1, x: 90, y: 792 - 680, width: 200, height: 60 }, // over the form's text
    { type: 'redact', page: 1, x: 90, y: 792 - 360, width: 70, height: 70 }, // over the inline image
  ];
  const { bytes: out, notes } = await run(
    [{ name: 'forms.pdf', bytes: input }],
    { operations: JSON.stringify(operations) },
    {},
  );
  expect((await qpdfCheck(out)).exitCode).toBe(0);
  const text = await allText(out);
  expect(text).not.toContain('FORMSECRET');
  expect(text).toContain('Visible words');
  const raw = await decompressed(out);
  expect(rawContains(raw, 'FORMSECRET')).toBe(false);
  expect(raw).not.toMatch(/BI \/W 1/);
  expect(notes?.[0]).toMatch(/10 characters removed, 1 image redacted/);
});

test('readOperations reads lazily; operandMatrix takes the last six numbers and ignores a malformed cm', () => {
  const reader = readOperations(bytes('9 1 0 0 1 5 6 cm /X 1 0 0 cm q (unterminated'));
  const first = reader.next();
  expect(!first.done && first.value.operator).toBe('cm');
  expect(!first.done && operandMatrix(first.value.operands)).toEqual([1, 0, 0, 1, 5, 6]);
  const second = reader.next();
  expect(!second.done && operandMatrix(second.value.operands)).toBeUndefined();
  expect([...reader].map((o) => o.operator)).toEqual(['q']);
});

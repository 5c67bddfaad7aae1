/**
 * Word equations (Insert › Equation: OMML m:oMath). Folio left them out without a word — a lab report
 * printed with gaps where its formulas were. LibreOffice prints them through its Math module (not
 * installed with Debian's headless LibreOffice here, which leaves them out too), so the layout is
 * judged by its geometry as poppler reads it: a fraction's numerator above its denominator, an
 * exponent raised, a sum's limits above and below, brackets as tall as a fraction, the text around
 * an inline equation on its line.
 */
import { expect, test } from 'vitest';
import {
  Document,
  Math as Equation,
  MathFraction,
  MathRadical,
  MathRoundBrackets,
  MathRun,
  MathSubScript,
  MathSum,
  MathSuperScript,
  Packer,
  Paragraph,
  TextRun,
} from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert, docxWithBody } from '../support/office-pdf-helpers.ts';
import { popplerText, popplerWords } from '../support/pdf.ts';

test('fractions, exponents, radicals, sums and brackets laid out in two dimensions, in line with the text', async () => {
  const run = (text: string) => new MathRun(text);
  const bytes = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Einstein wrote '),
                new Equation({
                  children: [run('E=m'), new MathSuperScript({ children: [run('c')], superScript: [run('2')] })],
                }),
                new TextRun(' in 1905.'),
              ],
            }),
            new Paragraph({
              children: [
                new Equation({
                  children: [
                    run('x='),
                    new MathFraction({
                      numerator: [
                        run('-b±'),
                        new MathRadical({
                          children: [
                            run('b'),
                            new MathSuperScript({ children: [run('')], superScript: [run('2')] }),
                            run('-4ac'),
                          ],
                        }),
                      ],
                      denominator: [run('2a')],
                    }),
                  ],
                }),
              ],
            }),
            new Paragraph({
              children: [
                new Equation({
                  children: [
                    new MathSum({ children: [run('k')], subScript: [run('k=1')], superScript: [run('n')] }),
                    run('+'),
                    new MathRoundBrackets({
                      children: [new MathFraction({ numerator: [run('p')], denominator: [run('q')] })],
                    }),
                    run('+'),
                    new MathSubScript({ children: [run('y')], subScript: [run('j')] }),
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    }),
  );
  const pdf = (await convert(wordToPdf, 'equations.docx', bytes)).bytes;
  // Every character of the equations is printed: a hyphen in an equation is a minus sign.
  const text = popplerText(pdf).replace(/\s+/g, '');
  for (const expected of ['EinsteinwroteE=mc', 'in1905.', 'x=', '−b±b', '−4ac', '2a', '∑', 'k=1', 'p', 'q', 'y', 'j'])
    expect(text, expected).toContain(expected);
  const words = popplerWords(pdf);
  const word = (t: string, after = 0) => words.filter((w) => w.text === t && w.xMin >= after)[0]!;
  const middle = (w: { yMin: number; yMax: number }) => (w.yMin + w.yMax) / 2;
  // Inline: the sentence goes on after the equation, on its line; the exponent stands above the c's middle.
  expect(Math.abs(word('wrote').yMax - word('in').yMax)).toBeLessThan(1);
  expect(word('in').xMin).toBeGreaterThan(word('E').xMax);
  const exponent = words.find((w) => w.text === '2' && w.yMax < word('wrote').yMax)!;
  expect(middle(exponent)).toBeLessThan(word('wrote').yMin + 5);
  // The quadratic formula: numerator above the denominator, both right of "x =", centred on each other.
  const [numerator, denominator] = [word('−b'), word('2a')];
  expect(denominator.yMin).toBeGreaterThan(numerator.yMax - 1);
  expect(middle(word('x'))).toBeGreaterThan(numerator.yMax - 2);
  expect(middle(word('x'))).toBeLessThan(denominator.yMin + 2);
  expect(Math.abs((word('4ac').xMax + numerator.xMin) / 2 - (denominator.xMin + denominator.xMax) / 2)).toBeLessThan(3);
  // The sum's limits above and below its sign; the brackets as tall as the fraction they hold.
  const sum = word('∑');
  const upper = words.find((w) => w.text === 'n' && middle(w) < middle(sum) - 5)!;
  const lower = words.find((w) => w.text.startsWith('k') && middle(w) > middle(sum) + 5)!;
  for (const limit of [upper, lower]) {
    expect(limit).toBeDefined();
    expect(limit.xMin).toBeLessThan(sum.xMax);
    expect(limit.xMax).toBeGreaterThan(sum.xMin);
  }
  const bracket = word('(');
  expect(bracket.yMax - bracket.yMin).toBeGreaterThan((word('p').yMax - word('p').yMin) * 1.6);
  // A subscript sits lower than its base.
  expect(middle(word('j'))).toBeGreaterThan(middle(word('y')));
});

test('a display equation of every other OMML construct: centred, each part printed', async () => {
  const r = (t: string, plain = false) =>
    `<m:r>${plain ? '<m:rPr><m:sty m:val="p"/></m:rPr>' : ''}<m:t>${t}</m:t></m:r>`;
  const e = (inner: string) => `<m:e>${inner}</m:e>`;
  const omml = [
    `<m:func><m:fName>${r('sin')}</m:fName>${e(r('θ'))}</m:func>`,
    `<m:acc><m:accPr><m:chr m:val="̂"/></m:accPr>${e(r('u'))}</m:acc>`,
    `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr>${e(r('z'))}</m:bar>`,
    `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e><m:m><m:mr>${e(r('a11'))}${e(r('a12'))}</m:mr><m:mr>${e(r('a21'))}${e(r('a22'))}</m:mr></m:m></m:e></m:d>`,
    `<m:d><m:dPr><m:begChr m:val="{"/><m:sepChr m:val=";"/><m:endChr m:val="}"/></m:dPr>${e(r('s1'))}${e(r('s2'))}</m:d>`,
    `<m:rad><m:deg>${r('3')}</m:deg>${e(r('v'))}</m:rad>`,
    `<m:limLow>${e(r('lim', true))}<m:lim>${r('t→0')}</m:lim></m:limLow>`,
    `<m:nary><m:naryPr><m:chr m:val="∏"/><m:limLoc m:val="subSup"/></m:naryPr><m:sub>${r('w1')}</m:sub><m:sup>${r('w2')}</m:sup>${e(r('g'))}</m:nary>`,
    `<m:sPre><m:sub>${r('pre1')}</m:sub><m:sup>${r('pre2')}</m:sup>${e(r('C'))}</m:sPre>`,
    `<m:groupChr>${e(r('grp'))}</m:groupChr>`,
    `<m:box>${e(r('boxed'))}</m:box>`,
    `<m:eqArr>${e(r('row1'))}${e(r('row2'))}</m:eqArr>`,
  ].join(r('+'));
  const body = `<w:p><w:r><w:t>Before</w:t></w:r></w:p><w:p><m:oMathPara><m:oMath>${omml}</m:oMath></m:oMathPara></w:p><w:p><w:r><w:t>After</w:t></w:r></w:p>`;
  const pdf = (await convert(wordToPdf, 'display.docx', await docxWithBody(body))).bytes;
  const text = popplerText(pdf).replace(/\s+/g, '');
  for (const part of [
    'sin',
    'θ',
    'u',
    'z',
    'a11',
    'a22',
    's1',
    ';',
    's2',
    'v',
    'lim',
    't→0',
    '∏',
    'w1',
    'w2',
    'g',
    'pre1',
    'pre2',
    'C',
    'grp',
    'boxed',
    'row1',
    'row2',
  ])
    expect(text, part).toContain(part);
  expect(text).not.toContain('?'); // no character without a glyph (a brace under "grp" is drawn, not a glyph)
  // Centred on the page (A4, 1 inch margins: the column's middle at x 297.6).
  const words = popplerWords(pdf).filter((w) => !['Before', 'After'].includes(w.text));
  const [left, right] = [Math.min(...words.map((w) => w.xMin)), Math.max(...words.map((w) => w.xMax))];
  expect(Math.abs((left + right) / 2 - 297.6)).toBeLessThan(6);
  expect(right - left).toBeLessThan(451);
});

test('a hostile equation nested 3,000 deep converts, its innermost text printed', async () => {
  const depth = 3000;
  const omml =
    '<m:f><m:num>'.repeat(depth) +
    '<m:r><m:t>core</m:t></m:r>' +
    '</m:num><m:den><m:r><m:t>d</m:t></m:r></m:den></m:f>'.repeat(depth);
  const body = `<w:p><m:oMath>${omml}</m:oMath></w:p><w:p><w:r><w:t>After</w:t></w:r></w:p>`;
  const pdf = (await convert(wordToPdf, 'deep.docx', await docxWithBody(body))).bytes;
  const text = popplerText(pdf);
  expect(text).toContain('core');
  expect(text).toContain('After');
});

/**
 * The seven utility forms in Chromium: each opened from its detail page (/tools/<id> → Get
 * Started), filled, Calculate pressed, the result text checked against known answers, the spec's
 * messages checked, copy ('Copied' for 2 s) and download tried; screenshots at 1280 and 390 px
 * (light, and dark for some), each checked with axe-core. The 20 MB JSON case checks that the work ran in the JSON
 * worker.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { screenshot, type WatchedPage, sharedBrowser } from './harness.ts';
import { openThemed, seriousViolations } from './shell-helpers.ts';

const shared = sharedBrowser();

type Theme = 'light' | 'dark';

async function openUtility(
  toolId: string,
  { width = 1280, theme = 'light' as Theme } = {},
): Promise<WatchedPage & { dialog: Locator }> {
  const watched = await openThemed(shared.browser, `/tools/${toolId}`, {
    width,
    theme,
    height: width < 600 ? 844 : 900,
  });
  await watched.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await watched.page.getByRole('button', { name: 'Get Started' }).first().click();
  const dialog = watched.page.getByRole('dialog');
  await dialog.waitFor();
  // The form is a lazy chunk: wait until its action button is there.
  await dialog.locator('button.u-calculate').waitFor();
  return { ...watched, dialog };
}

// Each utility's action says what it does (Calculate, Generate, Format, Count, Convert, Pick).
const calculate = (dialog: Locator) => dialog.locator('button.u-calculate').click();
const alertText = async (dialog: Locator) => ((await dialog.getByRole('alert').first().textContent()) ?? '').trim();
/** Visible text with the layout's line breaks turned into single spaces. */
const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

async function shots(
  name: string,
  open: (width: number, theme: Theme) => Promise<{ page: Page; context: { close(): Promise<void> } }>,
  themes: Theme[] = ['light'],
) {
  for (const theme of themes) {
    for (const width of [1280, 390]) {
      const { page, context } = await open(width, theme);
      await screenshot(page, `utility-${name}-${width}${theme === 'dark' ? '-dark' : ''}`);
      // Serious or critical axe-core findings (contrast, labels, roles) in the filled-in form.
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  }
}

function expectClean(watched: WatchedPage) {
  expect(watched.errors).toEqual([]);
  expect(watched.failedRequests).toEqual([]);
}

describe('utility forms in Chromium', () => {
  test('password-generator: length, classes, entropy, several at once, copy', async () => {
    const watched = await openUtility('password-generator');
    const { dialog, page } = watched;
    const list = dialog.getByTestId('passwords');
    // One password of 12 with all classes appears at once.
    await expect.poll(async () => (await list.locator('code').allTextContents()).length).toBe(1);
    const first = (await list.locator('code').first().textContent()) ?? '';
    expect(first).toMatch(/^[A-Za-z0-9!@#$%^&*()]{12}$/);
    expect(await text(dialog.getByTestId('strength'))).toBe('Strong');

    await dialog.getByLabel('Length', { exact: true }).fill('20');
    await dialog.getByLabel('Symbols').uncheck();
    await dialog.getByLabel('How many').selectOption('5');
    await calculate(dialog);
    const passwords = await list.locator('code').allTextContents();
    expect(passwords).toHaveLength(5);
    for (const p of passwords) expect(p).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9]{20}$/);
    expect(await text(dialog.getByTestId('entropy'))).toMatch(/^11\d\.\d bits of entropy$/);

    await dialog.getByRole('button', { name: 'Copy password 2' }).click();
    await expect.poll(() => text(list.locator('li').nth(1).getByRole('button'))).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(passwords[1]);
    await expect.poll(() => text(list.locator('li').nth(1).getByRole('button')), { timeout: 5000 }).toBe('Copy');

    // Out of range and no classes.
    await dialog.getByLabel('Length', { exact: true }).fill('40');
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Length must be a whole number from 8 to 32');
    await dialog.getByLabel('Length', { exact: true }).fill('8');
    for (const name of ['Uppercase', 'Lowercase', 'Numbers']) await dialog.getByLabel(name).uncheck();
    expect(await alertText(dialog)).toBe('Choose at least one kind of character');
    expectClean(watched);
    await watched.context.close();

    await shots(
      'password-generator',
      async (width, theme) => {
        const w = await openUtility('password-generator', { width, theme });
        await w.dialog.getByLabel('How many').selectOption('3');
        return w;
      },
      ['light', 'dark'],
    );
  });

  test('word-counter: live counts, CJK, keywords, dropped .txt', async () => {
    const watched = await openUtility('word-counter');
    const { dialog } = watched;
    await dialog
      .getByLabel('Text', { exact: true })
      .fill('Hello world. PDF tools, PDF files!\n\nSecond paragraph here.');
    const stats = dialog.getByTestId('word-stats');
    await expect.poll(() => text(stats)).toContain('9 Words');
    await calculate(dialog);
    const all = await text(stats);
    for (const part of [
      '9 Words',
      '58 Characters',
      '49 Without spaces',
      '3 Lines',
      '7 Spaces',
      '3 Sentences',
      '2 Paragraphs',
      '3 s Reading time',
    ])
      expect(all).toContain(part);
    expect(await text(dialog.getByTestId('keywords'))).toMatch(/^pdf 2 files 1 hello 1/);

    await dialog.getByLabel('Text', { exact: true }).fill('我喜欢学习中文。');
    await expect.poll(() => text(stats)).toContain('4 Words');

    // A .txt file opened through the button (the same loader as a drop).
    await dialog
      .getByLabel('Text file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('one two three four five') });
    await expect.poll(() => text(stats)).toContain('5 Words');
    expect(await text(dialog)).toContain('Loaded from notes.txt.');

    // A real drop of a file on the text box.
    const dataTransfer = await watched.page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped words here'], 'drop.txt', { type: 'text/plain' }));
      return transfer;
    });
    await dialog.getByLabel('Text', { exact: true }).dispatchEvent('drop', { dataTransfer });
    await expect.poll(() => text(stats)).toContain('3 Words');

    // Long text (here 450,000 characters) is counted in the words worker.
    const workers: string[] = [];
    watched.page.on('worker', (worker) => workers.push(worker.url()));
    await dialog.getByLabel('Text file').setInputFiles({
      name: 'long.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(10_000)),
    });
    await expect.poll(() => text(stats), { timeout: 60_000 }).toContain('90,000 Words');
    expect(await text(stats)).toContain('10,000 Sentences');
    expect(workers.some((url) => /words\.worker/.test(url))).toBe(true);

    await dialog.getByRole('button', { name: 'Clear' }).click();
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Type, paste or drop some text to count');
    expectClean(watched);
    await watched.context.close();

    await shots(
      'word-counter',
      async (width, theme) => {
        const w = await openUtility('word-counter', { width, theme });
        await w.dialog
          .getByLabel('Text', { exact: true })
          .fill(
            'Folio counts words as you type. It runs in your browser.\n\nNothing is uploaded; PDF tools and ' +
              'utilities work offline.',
          );
        await expect.poll(() => text(w.dialog.getByTestId('word-stats'))).toContain('20 Words');
        return w;
      },
      ['light', 'dark'],
    );
  });

  test('age-calculator: required, future refused, leap-day convention, age on a date', async () => {
    const watched = await openUtility('age-calculator');
    const { dialog } = watched;
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Birth date is required');

    await dialog.getByLabel('Birth date').fill('2999-01-01');
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Birth date cannot be in the future');

    await dialog.getByLabel('Birth date').fill('2000-02-29');
    await dialog.getByLabel(/Age on/).fill('2025-02-28');
    await calculate(dialog);
    expect(await text(dialog.getByTestId('age-headline'))).toBe('25 years, 0 months, 0 days');
    expect(await text(dialog)).toContain('9,131 Total days');
    expect(await text(dialog)).toContain('in common years the birthday is 28 February');

    await dialog.getByLabel(/Age on/).fill('2025-01-10');
    await expect.poll(() => text(dialog.getByTestId('age-headline'))).toBe('24 years, 10 months, 12 days');
    // Dates are written in the browser's locale, as its date field shows them.
    const longDate = await watched.page.evaluate(() =>
      new Intl.DateTimeFormat(undefined, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(Date.UTC(2025, 1, 28)),
    );
    expect(longDate).toMatch(/Friday/);
    expect(await text(dialog.getByTestId('next-birthday'))).toBe(
      `Next birthday: ${longDate}, turning 25 — in 49 days.`,
    );
    expectClean(watched);
    await watched.context.close();

    await shots('age-calculator', async (width, theme) => {
      const w = await openUtility('age-calculator', { width, theme });
      await w.dialog.getByLabel('Birth date').fill('1990-05-20');
      await w.dialog.getByLabel(/Age on/).fill('2025-06-01');
      await calculate(w.dialog);
      await w.dialog.getByTestId('age-headline').waitFor();
      return w;
    });
  });

  test('bmi-calculator: 70 kg / 175 cm → 22.9, bounds explained, imperial', async () => {
    const watched = await openUtility('bmi-calculator');
    const { dialog } = watched;
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Weight and height are required');

    await dialog.getByLabel('Weight (kg)').fill('70');
    await dialog.getByLabel('Height (cm)').fill('175');
    await calculate(dialog);
    expect(await text(dialog.getByTestId('bmi-value'))).toBe('22.9 Normal weight');
    expect(await text(dialog.getByTestId('bmi-healthy'))).toBe(
      'Healthy weight for your height: 56.7–76.3 kg (BMI 18.5–24.9).',
    );

    await dialog.getByLabel('Weight (kg)').fill('25');
    expect(await alertText(dialog)).toBe(
      'Weight must be between 30 and 300 kg — the adult range this calculator is made for',
    );
    await dialog.getByLabel('Weight (kg)').fill('70');
    await dialog.getByLabel('Height (cm)').fill('260');
    expect(await alertText(dialog)).toBe(
      'Height must be between 100 and 250 cm — the adult range this calculator is made for',
    );
    await dialog.getByLabel('Height (cm)').fill('175');

    // Switching to imperial carries the values over, converted.
    await dialog.getByText('Imperial (lb, ft, in)').click();
    expect(await dialog.getByLabel('Weight (lb)').inputValue()).toBe('154.3');
    expect(await dialog.getByLabel('Height (ft)').inputValue()).toBe('5');
    expect(await dialog.getByLabel('Inches').inputValue()).toBe('8.9');
    await calculate(dialog);
    expect(await text(dialog.getByTestId('bmi-value'))).toBe('22.9 Normal weight');
    expect(await text(dialog.getByTestId('bmi-healthy'))).toContain('124.9–168.1 lb');
    expectClean(watched);
    await watched.context.close();

    await shots(
      'bmi-calculator',
      async (width, theme) => {
        const w = await openUtility('bmi-calculator', { width, theme });
        await w.dialog.getByLabel('Weight (kg)').fill('82');
        await w.dialog.getByLabel('Height (cm)').fill('178');
        await calculate(w.dialog);
        await w.dialog.getByTestId('bmi-value').waitFor();
        return w;
      },
      ['light', 'dark'],
    );
  });

  test('color-picker: hex in, five notations, contrast, copy', async () => {
    const watched = await openUtility('color-picker');
    const { dialog, page } = watched;
    const hex = dialog.getByLabel('Hex colour');
    await hex.fill('#ff0000');
    await calculate(dialog);
    const notations = await text(dialog.getByTestId('notations'));
    for (const part of [
      'HEX #FF0000',
      'RGB rgb(255, 0, 0)',
      'HSL hsl(0, 100%, 50%)',
      'HSV hsv(0, 100%, 100%)',
      'CMYK cmyk(0%, 100%, 100%, 0%)',
    ])
      expect(notations).toContain(part);
    expect(await text(dialog.getByTestId('contrast-white'))).toBe('3.99 : 1');
    expect(await text(dialog.getByTestId('contrast-black'))).toBe('5.25 : 1');

    await hex.fill('#abc');
    await calculate(dialog);
    expect(await text(dialog.getByTestId('notations'))).toContain('RGB rgb(170, 187, 204)');

    await hex.fill('#12345');
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Enter a colour as #RRGGBB or #RGB, for example #1F4FD1');

    // The native picker drives the same state.
    await dialog.getByLabel('Colour picker').fill('#00ff00');
    expect(await hex.inputValue()).toBe('#00FF00');
    await dialog.getByRole('button', { name: 'Copy RGB' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('rgb(0, 255, 0)');
    expect(await text(dialog.getByTestId('notations'))).toContain('Copied');
    expectClean(watched);
    await watched.context.close();

    await shots('color-picker', async (width, theme) => openUtility('color-picker', { width, theme }), [
      'light',
      'dark',
    ]);
  });

  test('unit-converter: 1 mi = 1.609344 km, 0 °C = 32 °F, swap, required fields', async () => {
    const watched = await openUtility('unit-converter');
    const { dialog } = watched;
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('All fields are required');

    await dialog.getByLabel('Value').fill('1');
    await dialog.getByLabel('From').selectOption('mi');
    await dialog.getByLabel('To').selectOption('km');
    await calculate(dialog);
    expect(await text(dialog.getByTestId('conversion'))).toBe('1 mi = 1.609344 km');

    await dialog.getByRole('button', { name: 'Swap units' }).click();
    expect(await text(dialog.getByTestId('conversion'))).toBe('1.609344 km = 1 mi');

    await dialog.getByLabel('Value').fill('10');
    await dialog.getByLabel('From').selectOption('cm');
    await dialog.getByLabel('To').selectOption('in');
    expect(await text(dialog.getByTestId('conversion'))).toBe('10 cm = 3.937007874 in'); // never ×1.5

    await dialog.getByLabel('Kind of unit').selectOption('temperature');
    await dialog.getByLabel('Value').fill('0');
    expect(await text(dialog.getByTestId('conversion'))).toBe('0 °C = 32 °F');
    await dialog.getByLabel('Value').fill('-300');
    expect(await alertText(dialog)).toBe('That is below absolute zero (−273.15 °C, −459.67 °F, 0 K)');

    await dialog.getByLabel('Kind of unit').selectOption('data');
    await dialog.getByLabel('Value').fill('1');
    await dialog.getByLabel('From').selectOption('GiB');
    await dialog.getByLabel('To').selectOption('MB');
    expect(await text(dialog.getByTestId('conversion'))).toBe('1 GiB = 1,073.741824 MB');
    expectClean(watched);
    await watched.context.close();

    await shots(
      'unit-converter',
      async (width, theme) => {
        const w = await openUtility('unit-converter', { width, theme });
        await w.dialog.getByLabel('Value').fill('42');
        await calculate(w.dialog);
        await w.dialog.getByTestId('conversion').waitFor();
        return w;
      },
      ['light', 'dark'],
    );
  });

  test('json-formatter: required, invalid with line and column, format, sort, minify, copy, download', async () => {
    const watched = await openUtility('json-formatter');
    const { dialog, page } = watched;
    await calculate(dialog);
    expect(await alertText(dialog)).toBe('Input required');

    const input = dialog.getByLabel('JSON', { exact: true });
    await input.fill('{\n  "name": "Folio",\n  "tools": 25,,\n}');
    await expect
      .poll(() => text(dialog.getByTestId('json-live')))
      .toBe("✗ Line 3, column 15: Unexpected ',': expected a property name in double quotes");
    await calculate(dialog);
    expect(await alertText(dialog)).toBe(
      "Invalid JSON format at line 3, column 15: Unexpected ',': expected a property name in double quotes",
    );
    expect(await dialog.getByTestId('json-error-excerpt').textContent()).toBe('  "tools": 25,,\n              ^');

    await input.fill('{"b":1,"a":{"d":[1,2],"c":12345678901234567890}}');
    await expect.poll(() => text(dialog.getByTestId('json-live'))).toBe('✓ Valid JSON');
    await calculate(dialog);
    const output = dialog.getByTestId('json-output');
    expect(await output.inputValue()).toBe(
      '{\n  "b": 1,\n  "a": {\n    "d": [\n      1,\n      2\n    ],\n    "c": 12345678901234567890\n  }\n}',
    );

    await dialog.getByLabel('Indent').selectOption('tab');
    await dialog.getByLabel('Sort keys').check();
    await calculate(dialog);
    expect(await output.inputValue()).toBe(
      '{\n\t"a": {\n\t\t"c": 12345678901234567890,\n\t\t"d": [\n\t\t\t1,\n\t\t\t2\n\t\t]\n\t},\n\t"b": 1\n}',
    );

    await dialog.getByText('Minify', { exact: true }).click();
    await calculate(dialog);
    expect(await output.inputValue()).toBe('{"a":{"c":12345678901234567890,"d":[1,2]},"b":1}');

    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe('{"a":{"c":12345678901234567890,"d":[1,2]},"b":1}');
    expect(await dialog.getByRole('button', { name: 'Copied' }).count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download minified.json' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('minified.json');
    expect(readFileSync(await download.path(), 'utf8')).toBe('{"a":{"c":12345678901234567890,"d":[1,2]},"b":1}');
    expectClean(watched);
    await watched.context.close();

    await shots(
      'json-formatter',
      async (width, theme) => {
        const w = await openUtility('json-formatter', { width, theme });
        await w.dialog
          .getByLabel('JSON', { exact: true })
          .fill('{"name":"Folio","tools":25,"offline":true,"categories":["pdf","utility"]}');
        await calculate(w.dialog);
        await w.dialog.getByTestId('json-output').waitFor();
        return w;
      },
      ['light', 'dark'],
    );
    await shots('json-formatter-error', async (width, theme) => {
      const w = await openUtility('json-formatter', { width, theme });
      await w.dialog.getByLabel('JSON', { exact: true }).fill('{\n  "name": "Folio",\n  "tools": 25,,\n}');
      await calculate(w.dialog);
      await w.dialog.getByTestId('json-error-excerpt').waitFor();
      return w;
    });
  });

  test('json-formatter: a 20 MB file is formatted in the JSON worker', async () => {
    const watched = await openUtility('json-formatter');
    const { dialog, page } = watched;
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const rows = Array.from({ length: 210_000 }, (_, i) => ({
      id: i,
      name: `item ${i}`,
      tags: ['a', 'b'],
      price: i * 1.25,
      ok: i % 2 === 0,
      meta: { x: null },
    }));
    const json = JSON.stringify(rows);
    expect(json.length).toBeGreaterThan(20_000_000);
    // Longest main-thread task while formatting (printed as a figure, not asserted: no timed tests).
    await page.evaluate(() => {
      const w = window as unknown as { longest: number };
      w.longest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longest = Math.max(w.longest, entry.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    await dialog
      .getByLabel('JSON file')
      .setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(json) });
    expect(await text(dialog.getByTestId('json-file'))).toMatch(/^big\.json — \d+\.\d MB, formatted in the background/);
    // Measure from here: loading the 20 MB test file into the page is the harness's work, not the app's.
    await page.evaluate(() => {
      (window as unknown as { longest: number }).longest = 0;
    });
    await calculate(dialog);
    await dialog.getByTestId('json-valid').waitFor({ timeout: 110_000 });
    expect(workers.some((url) => /json\.worker/.test(url))).toBe(true);
    const preview = await dialog.getByTestId('json-output').inputValue();
    expect(preview.startsWith('[\n  {\n    "id": 0,\n    "name": "item 0",')).toBe(true);
    expect(await text(dialog)).toContain('Showing the first 1.0 MB of the result');
    const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
    console.log(`json-formatter 20 MB: longest main-thread task while formatting ${Math.round(longest)} ms`);
    expectClean(watched);
    await watched.context.close();
  });
});

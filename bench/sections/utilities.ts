/**
 * Utilities: JSON formatting (our raw-preserving parser/printer against the engine's own
 * JSON.parse + JSON.stringify, which loses big integers), word counting (1 MB of English and of
 * Chinese) and password generation. All in Node, one run each.
 */
import { timed, fmtBytes } from '../lib.ts';
import { formatJson } from '../../src/utilities/json.ts';
import { analyzeText } from '../../src/utilities/words.ts';
import { DEFAULT_PASSWORD_OPTIONS, generatePasswords } from '../../src/utilities/password.ts';

export async function run(): Promise<void> {
  const rows = Array.from({ length: 210_000 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['a', 'b'],
    price: i * 1.25,
    ok: i % 2 === 0,
    meta: { x: null },
  }));
  const json = JSON.stringify(rows);
  const ours = await timed(() => formatJson(json, { indent: '2', minify: false, sortKeys: false }));
  const native = await timed(() => JSON.stringify(JSON.parse(json), null, 2));
  const sorted = await timed(() => formatJson(json, { indent: '2', minify: false, sortKeys: true }));
  console.log(
    `json ${fmtBytes(json.length)}: format ${ours.ms.toFixed(0)} ms (JSON.parse+stringify ` +
      `${native.ms.toFixed(0)} ms), with sorted keys ${sorted.ms.toFixed(0)} ms`,
  );

  const english = 'The quick brown fox jumps over the lazy dog. '.repeat(23_000);
  const chinese = '我喜欢学习中文。'.repeat(45_000);
  for (const [name, text] of [
    ['English', english],
    ['Chinese', chinese],
  ] as const) {
    const result = await timed(() => analyzeText(text));
    console.log(
      `word count ${name} ${fmtBytes(new TextEncoder().encode(text).length)}: ${result.ms.toFixed(0)} ms ` +
        `(${result.value.words} words)`,
    );
  }

  const passwords = await timed(() => generatePasswords(10_000, DEFAULT_PASSWORD_OPTIONS));
  console.log(`passwords: 10,000 × 12 characters in ${passwords.ms.toFixed(0)} ms`);
}

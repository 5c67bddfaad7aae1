/**
 * `npx tsx tests/wide/missing-characters.ts [word…]`: which characters LibreOffice's PDF of a wide-corpus
 * file has (its cached `pdftotext -layout` text, tests/wide/libreoffice-reference.ts) and Folio's PDF of
 * the same file lacks, grouped by writing system. Only files whose LibreOffice text has a character
 * beyond Latin (U+0250 on) are converted. Arguments narrow the files as WIDE_ONLY does.
 */
import { libreOfficeReference } from './libreoffice-reference.ts';
import { runWide, wideManifest } from './runner.ts';
import { describeByScript, scriptName } from '../../workers/engine/lib/unicode-scripts.ts';

const words = process.argv.slice(2);
const beyondLatin = (char: string) => char.codePointAt(0)! >= 0x250 && !/\s/u.test(char);

const references = new Map<string, string>();
for (const entry of wideManifest()) {
  if (!/\.(docx|xlsx|pptx)$/.test(entry.file) || (words.length && !words.some((w) => entry.file.includes(w)))) continue;
  const text = libreOfficeReference(entry)?.text;
  if (text && [...text].some(beyondLatin)) references.set(entry.file, text);
}
console.log(`${references.size} files whose LibreOffice PDF has characters beyond Latin`);

const lostByScript = new Map<string, { files: Set<string>; chars: Set<string> }>();
const outcomes = await runWide({ only: [...references.keys()], compare: false, keepText: true });
for (const outcome of outcomes) {
  const file = outcome.entry.file;
  if (outcome.text === undefined) {
    console.log(`${file}: not converted (${outcome.status})`);
    continue;
  }
  const folio = new Set(outcome.text);
  const lost = [...new Set(references.get(file))].filter((c) => beyondLatin(c) && !folio.has(c));
  const questionMarks = [...outcome.text].filter((c) => c === '?').length;
  const referenceMarks = [...references.get(file)!].filter((c) => c === '?').length;
  if (!lost.length && questionMarks <= referenceMarks) continue;
  console.log(
    `${file}: ${lost.length} characters lost${lost.length ? ` (${describeByScript(lost)})` : ''}; "?" ` +
      `${questionMarks} (LibreOffice ${referenceMarks})`,
  );
  for (const char of lost) {
    const name = scriptName(char);
    const group = lostByScript.get(name) ?? { files: new Set(), chars: new Set() };
    group.files.add(file);
    group.chars.add(char);
    lostByScript.set(name, group);
  }
}
console.log('\nLost characters by writing system:');
for (const [name, { files, chars }] of [...lostByScript].sort((a, b) => b[1].files.size - a[1].files.size))
  console.log(`  ${name}: ${files.size} files, ${chars.size} characters (${[...chars].slice(0, 12).join(' ')})`);

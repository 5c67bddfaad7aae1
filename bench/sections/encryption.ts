/**
 * npm run bench -- encryption
 *
 * protect-pdf (AES-256, R6) and unlock-pdf (qpdf 12 WASM, one fresh instance per job, in Node) on
 * the large corpus PDFs, beside native qpdf doing the same work in the same run
 * (`qpdf --encrypt --bits=256` and `qpdf --decrypt`): time, the ratio and output size. Then unlock
 * over every password-encrypted corpus file (time per file). Passwords are fixed test strings.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, corpusFile, fmtBytes, hasCommand, loadEngineModules, timed } from '../lib.ts';

const LARGE = [
  'pdf/large/texlive-interface3.pdf',
  'pdf/large/sf-geotopo-komprimiert.pdf',
  'pdf/clean/pdflib-us-constitution.pdf',
];

export async function run(): Promise<void> {
  const { modules, close } = await loadEngineModules({
    protect: '/workers/engine/tools/protect-pdf.ts',
    unlock: '/workers/engine/tools/unlock-pdf.ts',
  });
  const native = hasCommand('qpdf');
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-encryption-'));
  try {
    console.log(`file | size | protect (WASM) | native qpdf | ratio | unlock (WASM) | native qpdf | ratio`);
    for (const file of LARGE) {
      const bytes = corpusFile(file);
      if (!bytes) {
        console.log(`${file}: not in ${CORPUS}, skipped`);
        continue;
      }
      const name = file.split('/').pop()!;
      const protect = await timed(() =>
        modules.protect.run([{ name, bytes }], { password: 'bench-pw', print: 'low' }, {}),
      );
      const unlock = await timed(() =>
        modules.unlock.run([{ name, bytes: protect.value.bytes }], { password: 'bench-pw' }, {}),
      );
      let nativeProtect = NaN;
      let nativeUnlock = NaN;
      if (native) {
        const input = join(dir, 'in.pdf');
        writeFileSync(input, bytes);
        nativeProtect = (
          await timed(() =>
            execFileSync('qpdf', [
              input,
              '--encrypt',
              'bench-pw',
              'owner-pw',
              '256',
              '--print=low',
              '--',
              join(dir, 'enc.pdf'),
            ]),
          )
        ).ms;
        nativeUnlock = (
          await timed(() =>
            execFileSync('qpdf', ['--password=bench-pw', '--decrypt', join(dir, 'enc.pdf'), join(dir, 'dec.pdf')]),
          )
        ).ms;
      }
      const ratio = (a: number, b: number) => (Number.isFinite(b) ? `${(a / b).toFixed(2)}×` : 'n/a');
      console.log(
        `${name} | ${fmtBytes(bytes.length)} | ${protect.ms.toFixed(0)} ms → ` +
          `${fmtBytes(protect.value.bytes.length)} | ` +
          `${Number.isFinite(nativeProtect) ? `${nativeProtect.toFixed(0)} ms` : 'n/a'} | ` +
          `${ratio(protect.ms, nativeProtect)} | ${unlock.ms.toFixed(0)} ms | ` +
          `${Number.isFinite(nativeUnlock) ? `${nativeUnlock.toFixed(0)} ms` : 'n/a'} | ` +
          `${ratio(unlock.ms, nativeUnlock)}`,
      );
    }

    const manifest = corpusFile('manifest.json');
    if (manifest) {
      const entries = (
        JSON.parse(new TextDecoder().decode(manifest)) as Array<{
          file: string;
          expect: string;
          encryption: null | { user_password: string | null; R: number | null };
        }>
      ).filter((e) => e.encryption && e.expect === 'ok' && e.file.endsWith('.pdf'));
      let total = 0;
      for (const entry of entries) {
        const bytes = corpusFile(entry.file)!;
        const { ms } = await timed(() =>
          modules.unlock.run([{ name: 'x.pdf', bytes }], { password: entry.encryption!.user_password ?? '' }, {}),
        );
        total += ms;
      }
      console.log(
        `unlock over ${entries.length} encrypted corpus files (R2–R6): ${total.toFixed(0)} ms in all, ` +
          `${(total / entries.length).toFixed(0)} ms per file`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await close();
  }
}

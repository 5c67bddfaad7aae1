/**
 * protect-pdf: encrypts a PDF with AES-256 (PDF 2.0 standard security handler, R6, AESv3) using
 * qpdf's `--encrypt` (WASM, one fresh instance per job). A password opens the file; an optional
 * permissions (owner) password guards the restrictions — printing, copying, editing, commenting and
 * forms, page assembly, accessibility — and a random one is made when none is given.
 *
 * An input that is itself encrypted is opened with `inputPassword` (the field every tool uses for
 * an encrypted input); the modal asks for it when the engine answers PasswordRequired.
 */
import type { Engine, EngineOptions } from '../lib/types.ts';
import { FolioError, isFolioError, throwIfAborted } from '../lib/errors.ts';
import { assertLooksLikePdf, openPdf, pageTreeRepairs } from '../lib/pdf/pdf-open.ts';
import { handleActiveContent, hasActiveContent } from '../lib/pdf/active-content.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { protectPdf, type Permissions } from '../lib/pdf/encryption.ts';
import { outputName } from '../lib/pdf/encryption-names.ts';

/** The catalogue's option values (see src/catalogue/tools/protect-pdf.ts) as permissions; absent ones allow. */
export function permissionsFromOptions(options: EngineOptions): Permissions {
  // The catalogue says 'high' ("printing: none / low / high"); qpdf says 'full'.
  const print = options.print === 'none' ? 'none' : options.print === 'low' ? 'low' : 'full';
  const allowed = (name: string) => options[name] !== false;
  return {
    print,
    copy: allowed('allowCopy'),
    edit: allowed('allowEdit'),
    annotate: allowed('allowAnnotate'),
    assemble: allowed('allowAssemble'),
  };
}

export const run: Engine = async (inputs, options, ctx) => {
  const [input] = inputs;
  assertLooksLikePdf(input);
  const password = typeof options.password === 'string' ? options.password : '';
  const ownerPassword = typeof options.ownerPassword === 'string' ? options.ownerPassword : '';
  // The /api handler runs the catalogue's validate() already; engines called directly check too.
  if ([...password].length < 4) throw new FolioError('InvalidInput', 'Password must be at least 4 characters');
  if (ownerPassword !== '' && [...ownerPassword].length < 4)
    throw new FolioError('InvalidInput', 'Password must be at least 4 characters');
  const permissions = permissionsFromOptions(options);

  throwIfAborted(ctx.signal);
  ctx.progress?.(0, 1);
  const settings = { userPassword: password, ownerPassword, permissions };
  // qpdf refuses to write some damage (a loop in the page tree: "Loop detected in /Pages
  // structure"); openPdf below rebuilds such a tree, or names what cannot be rebuilt.
  let qpdfDamage: unknown;
  const asIs = { ...settings, inputPassword: input.password };
  const direct = await protectPdf(input.name, input.bytes, asIs).catch((error: unknown) => {
    if (!(isFolioError(error) && error.name === 'DamagedPdf')) throw error;
    qpdfDamage = error;
    return undefined;
  });
  // The input opened (protectPdf checked its password rules): now its scripts and actions. When they
  // are to go, or its page tree had to be rebuilt, the cleaned or rebuilt copy is encrypted instead.
  // When neither opens it, openPdf's damage (it names what is wrong) wins over qpdf's general one.
  const opened = await openPdf(input).catch((error: unknown) => {
    throw qpdfDamage && !(isFolioError(error) && error.name === 'DamagedPdf') ? qpdfDamage : error;
  });
  const active = handleActiveContent(opened.doc, options);
  const treeRebuilt = pageTreeRepairs(opened.doc).length > 0;
  let protectedPdf = direct;
  if (!protectedPdf || treeRebuilt || (active.removed && hasActiveContent(active.report))) {
    const encrypted = await protectPdf(input.name, await savePdf(opened.doc), settings);
    protectedPdf = { bytes: encrypted.bytes, repaired: encrypted.repaired || treeRebuilt || !direct };
  }
  throwIfAborted(ctx.signal);
  ctx.progress?.(1, 1);

  const restricted = describeRestrictions(permissions);
  const notes = [
    `Encrypted with AES-256 (PDF 2.0, R6). ` +
      `${restricted.length ? `Restricted: ${restricted.join(', ')}.` : 'No restrictions besides the password.'}`,
  ];
  if (restricted.length && ownerPassword === '') {
    notes.push(
      'No permissions password was set, so a random one was used: the restrictions cannot be lifted later in ' +
        'readers that honour them.',
    );
  }
  if (protectedPdf.repaired) notes.push('Minor structural damage in the file was repaired on the way.');
  if (active.note) notes.push(active.note);
  return { bytes: protectedPdf.bytes, filename: outputName(input.name, 'protected'), mime: 'application/pdf', notes };
};

function describeRestrictions(p: Permissions): string[] {
  const out: string[] = [];
  if (p.print === 'none') out.push('printing');
  if (p.print === 'low') out.push('high-quality printing');
  if (!p.copy) out.push('copying');
  if (!p.edit) out.push('editing');
  if (!p.annotate) out.push('comments and form filling');
  if (!p.assemble) out.push('page assembly');
  return out;
}

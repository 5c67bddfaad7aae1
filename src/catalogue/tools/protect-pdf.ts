import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/protect-pdf.ts';
import { newPasswordProblem } from '../../../shared/encryption-passwords.ts';

/** The rule for every password this tool sets: at least 4 characters (code points, not UTF-16 units). */
const tooShort = (password: string) => [...password].length < 4;

export const tool: FileToolEntry = {
  id: 'protect-pdf',
  name: 'Protect PDF',
  description: 'Add password to PDF',
  icon: 'lock',
  order: 16,
  groups: { dropdown: 'Secure PDF', toolsPage: 'Secure PDF', menu: 'PDF Tools' },
  home: { heroTile: 4 },
  kind: 'file',
  endpoint: '/api/pdf/protect',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'protect-pdf-result.pdf',
  options: [
    {
      kind: 'password',
      name: 'password',
      label: 'Password',
      default: '',
      confirm: true,
      autocomplete: 'new-password',
      help:
        'Needed to open the file. At least 4 characters, at most 127 bytes (127 Latin letters, fewer accented or ' +
        'non-Latin ones).',
    },
    {
      kind: 'password',
      name: 'ownerPassword',
      label: 'Permissions password (optional)',
      default: '',
      autocomplete: 'new-password',
      help: 'Needed to lift the restrictions below. Leave empty to use a random one nobody knows.',
    },
    {
      kind: 'select',
      name: 'print',
      label: 'Printing',
      default: 'high',
      choices: [
        { value: 'high', label: 'Allowed (high quality)' },
        { value: 'low', label: 'Low resolution only' },
        { value: 'none', label: 'Not allowed' },
      ],
    },
    { kind: 'checkbox', name: 'allowCopy', label: 'Copying text and images', default: true },
    { kind: 'checkbox', name: 'allowEdit', label: 'Editing the document', default: true },
    { kind: 'checkbox', name: 'allowAnnotate', label: 'Adding comments and filling in forms', default: true },
    { kind: 'checkbox', name: 'allowAssemble', label: 'Inserting, deleting and rotating pages', default: true },
    REMOVE_SCRIPTS,
  ],
  validate: (values) => {
    const password = String(values.password ?? '');
    const ownerPassword = String(values.ownerPassword ?? '');
    if (tooShort(password)) return 'Password must be at least 4 characters';
    if (password !== String(values.confirmPassword ?? '')) return 'Passwords do not match';
    if (ownerPassword !== '' && tooShort(ownerPassword)) return 'Password must be at least 4 characters';
    const tooLong =
      newPasswordProblem(password) ??
      (ownerPassword !== '' ? newPasswordProblem(ownerPassword, 'permissions password') : undefined);
    if (tooLong) return tooLong;
    if (ownerPassword !== '' && ownerPassword === password) {
      return 'The permissions password must be different from the password that opens the file.';
    }
    return null;
  },
  content,
};

import type { ToolContent } from '../types.ts';

/** Detail-page copy of unlock-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Unlock PDF removes the password from a PDF you are allowed to open, so you no longer have to type it every ' +
    'time. It handles every standard PDF encryption, from old RC4 files to modern AES-256, and lifts printing ' +
    'and copying restrictions too.',
  features: [
    'Supports RC4 40/128-bit, AES-128 and AES-256 encryption',
    'Works with the open password or the permissions password',
    'Non-ASCII and long passwords supported',
    'Files with restrictions only are unlocked without asking for a password',
    'Leaves your original file untouched and gives you an unlocked copy',
  ],
  usage: [
    'Click Upload Files and select the protected PDF.',
    'Type its password.',
    'Click Process Files.',
    'Download the unlocked copy.',
  ],
  perfectFor: [
    'Removing the password from your own bank or payroll statements',
    'Archiving documents that should stay readable in years to come',
    'Printing or copying from a file you own that has restrictions',
    'Merging or editing protected files with other Folio tools',
  ],
  privacy:
    'Your password and your document stay on this device. Decryption runs in a background worker in your ' +
    'browser, and the password is not logged, stored or kept after the job is done.',
  whyUse:
    'Typing a password into an upload site defeats the point of having one. Folio decrypts locally, says ' +
    'clearly when a password is wrong, and supports every standard encryption method.',
};

import type { ToolContent } from '../types.ts';

/** Detail-page copy of protect-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Protect PDF encrypts a document with a password using AES-256, the strongest encryption the PDF format ' +
    'offers. Optionally add a permissions password and choose whether people may print, copy, edit, comment or ' +
    'rearrange pages.',
  features: [
    'AES-256 encryption (PDF 2.0, revision 6)',
    'Open password, plus an optional permissions password',
    'Control printing, copying, editing, comments and forms, and page assembly',
    'Password confirmation and a strength hint, with a link to generate a strong one',
    'Works in every standard PDF reader',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Enter a password of at least 4 characters and confirm it.',
    'Optionally set a permissions password and choose the permissions.',
    'Click Process Files and download the protected PDF.',
  ],
  perfectFor: [
    'Emailing contracts, payslips or medical records',
    'Sharing financial reports with a limited audience',
    'Keeping personal documents safe on a shared computer',
    'Preventing edits to a finished document',
  ],
  privacy:
    'Encryption runs on your device with a WebAssembly build of qpdf. Folio never sees the password you choose ' +
    'or the document you protect, and keeps neither once the job is done.',
  whyUse:
    'Uploading a document to encrypt it means trusting someone with the unencrypted copy. Folio encrypts before ' +
    'the file goes anywhere, with the same strong AES-256 standard as desktop software.',
};

/** Names shown to people for encryption facts, and the names of the files the tools produce. */
import type { EncryptionReport } from './encryption.ts';
import { baseName } from '../../../../shared/format.ts';

/** "RC4 40-bit", "AES-128", "AES-256" with the handler revision, e.g. "AES-256, R6". */
export function describeEncryption(report: Pick<EncryptionReport, 'method' | 'bits' | 'R'>): string {
  const cipher =
    report.method === 'AESv3'
      ? 'AES-256'
      : report.method === 'AESv2'
        ? 'AES-128'
        : report.method === 'RC4'
          ? `RC4 ${report.bits}-bit`
          : report.method;
  return `${cipher}, R${report.R}`;
}

/** "Report 2024.PDF" + "unlocked" → "Report 2024-unlocked.pdf". Never holds anything secret. */
export function outputName(inputName: string, suffix: string): string {
  return `${baseName(inputName)}-${suffix}.pdf`;
}

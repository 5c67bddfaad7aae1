import { describe, expect, test } from 'vitest';
import { baseName, commonName, formatBytes } from '../../shared/format.ts';

describe('formatBytes: one way of writing sizes on every screen', () => {
  test.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [3_500_000, '3.3 MB'],
    [5 * 1024 ** 3, '5.0 GB'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('baseName: results are named after their input', () => {
  test.each([
    ['Report 2024.PDF', 'Report 2024'],
    ['C:\\scans\\report.pdf', 'report'],
    ['/home/me/photo.final.jpeg', 'photo.final'],
    ['Quarterly report.docx', 'Quarterly report'],
    ['notes', 'notes'],
    ['.pdf', 'document'],
  ])('%s → %s', (name, base) => expect(baseName(name)).toBe(base));

  test('an empty name takes the fallback the caller gives', () => expect(baseName('', 'image')).toBe('image'));
});

describe('commonName: one result from several inputs', () => {
  test.each([
    [['holiday-photos-1.jpg', 'holiday-photos-2.jpg', 'holiday-photos-10.jpg'], 'holiday-photos'],
    [['IMG_0001.JPG', 'IMG_0002.JPG'], 'IMG'],
    [['wide.jpg', 'tall.png'], 'wide'],
    [['report-2024.pdf'], 'report-2024'],
  ])('%j → %s', (names, name) => expect(commonName(names)).toBe(name));
});

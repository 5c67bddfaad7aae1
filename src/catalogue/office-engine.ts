import { libreOfficeDownloadSize } from '../../shared/libreoffice-files.ts';

/**
 * The `engine` option of the three Office tools (Word, Excel, PowerPoint to PDF): Folio's own
 * renderers, or the optional LibreOffice engine (workers/engine/lib/libreoffice/libreoffice.ts). Legacy .doc,
 * .xls and .ppt files always go to LibreOffice, whatever is chosen.
 */
export const OFFICE_ENGINE_CHOICES = [
  { value: 'folio', label: 'Folio — built in, fast, offline' },
  { value: 'libreoffice', label: `LibreOffice — most faithful, ${libreOfficeDownloadSize()} download once, desktop` },
] as const;

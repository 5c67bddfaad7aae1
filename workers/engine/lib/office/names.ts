/** "Quarterly report.docx" → "Quarterly report" (the name of the PDF we produce). */
export function baseName(filename: string): string {
  const name = filename.replace(/^.*[\\/]/, '');
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name) || 'document';
}

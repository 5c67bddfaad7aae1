/**
 * PDFs whose cross-reference table points to the wrong places, as files changed after they were
 * written come out (a line added, line breaks converted) or as producers that count characters for
 * bytes write them.
 */
const latin1 = new TextDecoder('latin1');
const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** A comment line added after the header: every offset, `startxref` included, is short by its length. */
export function withLineAfterHeader(pdf: Uint8Array): Uint8Array {
  const text = latin1.decode(pdf);
  const at = text.indexOf('\n') + 1;
  return bytesOf(`${text.slice(0, at)}% a line another program added\n${text.slice(at)}`);
}

/**
 * A comment line added before object `number`, with `startxref` still right: the table's offsets of
 * the objects after it are short by its length.
 */
export function withLineBeforeObject(pdf: Uint8Array, number: number): Uint8Array {
  const text = latin1.decode(pdf);
  const at = text.indexOf(`\n${number} 0 obj`) + 1;
  if (at === 0) throw new Error(`no object ${number}`);
  const line = '% a line another program added\n';
  const shifted = `${text.slice(0, at)}${line}${text.slice(at)}`.replace(
    /startxref\s+(\d+)\s+%%EOF\s*$/,
    (_, offset: string) => `startxref\n${Number(offset) + line.length}\n%%EOF\n`,
  );
  return bytesOf(shifted);
}

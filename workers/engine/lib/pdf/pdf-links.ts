/**
 * The one writer of link actions in Folio's PDFs, and the rule for which link targets a PDF may
 * carry. Every engine that writes a web link (the Office renderers, the LibreOffice clean-up, the
 * active-content cleaner) goes through here, so that a link target can never become PDF syntax.
 *
 * - A target is parsed with the WHATWG URL parser (what browsers do) and only `http:`, `https:`,
 *   `mailto:` and `tel:` are allowed: nothing that runs code (`javascript:`, `vbscript:`), carries a
 *   document of its own (`data:`) or points into a file system (`file:`, relative paths).
 * - What is written is the parser's serialisation (`URL.href`: printable ASCII, everything else
 *   percent-encoded) as a hex string: `(`, `)`, `\` and line ends have no meaning inside `<…>`, so a
 *   target cannot close the string and add keys such as `/S /JavaScript` (pdf-lib's PDFString.of
 *   writes its text between parentheses without escaping them).
 */
import { PDFDict, PDFHexString, PDFName, PDFString, type PDFContext } from 'pdf-lib';

export const ALLOWED_LINK_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:', 'tel:'];

/** PDF's /URI is 7-bit ASCII (ISO 32000-2 §12.6.4.8); the serialisation must stay printable too. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The normalised address a link may open, or undefined when it must not become a link: not an
 * absolute URL, a scheme outside the allow-list, or a web address without a host.
 */
export function allowedLinkTarget(target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target.trim());
  } catch {
    return undefined; // relative, or not a URL at all
  }
  if (!ALLOWED_LINK_SCHEMES.includes(url.protocol)) return undefined;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname) return undefined;
  const href = url.href;
  if (!PRINTABLE_ASCII.test(href)) return undefined;
  return href;
}

/** Hex digits of an ASCII string (the target is printable ASCII by then). */
function asciiHex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

/**
 * A URI action dictionary opening `target`, or undefined when the target is not allowed (the caller
 * then writes no link at all).
 */
export function uriAction(context: PDFContext, target: string): PDFDict | undefined {
  const href = allowedLinkTarget(target);
  if (!href) return undefined;
  return context.obj({ Type: 'Action', S: 'URI', URI: PDFHexString.of(asciiHex(href)) });
}

/** The text of a /URI value as read from a file (string or hex string), or undefined for anything else. */
export function uriText(value: unknown): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) {
    // /URI is ASCII: the bytes, one character each (decodeText would read UTF-16 BOMs as text).
    return Array.from(value.asBytes(), (byte) => String.fromCharCode(byte)).join('');
  }
  return undefined;
}

/** True for a URI action dictionary whose target is allowed. */
export function isAllowedUriAction(action: PDFDict): boolean {
  if (action.lookup(PDFName.of('S')) !== PDFName.of('URI')) return false;
  const target = uriText(action.lookup(PDFName.of('URI')));
  return target !== undefined && allowedLinkTarget(target) !== undefined;
}

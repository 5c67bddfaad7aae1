/**
 * Who may hand files to Folio through the share target (POST /share-target, read by src/sw.ts).
 *
 * The OS share sheet opens it as a top-level navigation that no page started: mode "navigate", no
 * referrer, the default referrer policy, and (Chromium) `Origin: null`. A form on another site can
 * send the same POST. Chromium attaches Sec-Fetch-Site only after the service worker, but it does
 * show the Origin header, the referrer and the referrer policy, so the service worker refuses:
 *   - anything that is not a top-level navigation (a fetch() from any page);
 *   - an Origin or a referrer naming another origin (a plain cross-site form);
 *   - the "no-referrer" policy (a cross-site form that hides where it comes from);
 *   - Sec-Fetch-Site other than none/same-origin, where a browser exposes it.
 * What it cannot tell from the share sheet: a form inside a sandboxed frame with a data: URL (an
 * opaque origin, no referrer, default policy) — see docs/offline.md. Such files still only wait on
 * /open, named as plain text, until the user picks a tool.
 */
export interface ShareRequest {
  mode: string;
  method: string;
  referrer: string;
  referrerPolicy: string;
  headers: { get(name: string): string | null };
}

export function isShareFromOs(request: ShareRequest, origin: string): boolean {
  if (request.mode !== 'navigate' || request.method !== 'POST') return false;
  const site = request.headers.get('Sec-Fetch-Site');
  if (site !== null && site !== 'none' && site !== 'same-origin') return false;
  const from = request.headers.get('Origin');
  if (from !== null && from !== 'null' && from !== origin) return false;
  if (request.referrerPolicy === 'no-referrer') return false;
  if (request.referrer && request.referrer !== 'about:client') {
    try {
      if (new URL(request.referrer).origin !== origin) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A shared file's name as shown on /open (React renders it as text): no "../" or "./" segments and
 * no leading slash, no control characters, at most 200 characters.
 */
export function plainFileName(name: string): string {
  const parts = name.split(/[\\/]/).filter((part) => part !== '' && part !== '.' && part !== '..');
  const clean = parts
    .join('/')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  return (clean || 'shared file').slice(0, 200);
}

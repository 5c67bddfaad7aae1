/**
 * The share target's rule (src/pwa/share-target.ts) over the requests Chromium hands a service
 * worker (values recorded from Debian's Chromium: a cross-site form, one with
 * <meta name="referrer" content="no-referrer">, a same-origin form) and the OS share sheet's
 * (browser-initiated POST: Origin null, no referrer, default policy). The e2e suite runs the
 * cross-site forms against the built app (tests/e2e/offline-first-visit.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { isShareFromOs, plainFileName, type ShareRequest } from '../../src/pwa/share-target.ts';

const ORIGIN = 'https://folio.example';

function request(
  overrides: Partial<Omit<ShareRequest, 'headers'>> & { headers?: Record<string, string> } = {},
): ShareRequest {
  const headers = new Headers(overrides.headers ?? {});
  return {
    mode: 'navigate',
    method: 'POST',
    referrer: '',
    referrerPolicy: 'strict-origin-when-cross-origin',
    ...overrides,
    headers,
  };
}

describe('isShareFromOs', () => {
  test('the share sheet (Origin null, no referrer) and a same-origin form are taken', () => {
    expect(isShareFromOs(request({ headers: { Origin: 'null' } }), ORIGIN)).toBe(true);
    expect(isShareFromOs(request(), ORIGIN)).toBe(true);
    expect(isShareFromOs(request({ referrer: `${ORIGIN}/tools`, headers: { Origin: ORIGIN } }), ORIGIN)).toBe(true);
    expect(isShareFromOs(request({ headers: { 'Sec-Fetch-Site': 'none', Origin: 'null' } }), ORIGIN)).toBe(true);
  });

  test('a cross-site form is refused, by its Origin, its referrer or its hidden referrer', () => {
    expect(
      isShareFromOs(request({ referrer: 'http://evil.example/', headers: { Origin: 'http://evil.example' } }), ORIGIN),
    ).toBe(false);
    expect(isShareFromOs(request({ referrer: 'http://evil.example/page' }), ORIGIN)).toBe(false);
    expect(isShareFromOs(request({ referrerPolicy: 'no-referrer', headers: { Origin: 'null' } }), ORIGIN)).toBe(false);
    expect(isShareFromOs(request({ headers: { 'Sec-Fetch-Site': 'cross-site' } }), ORIGIN)).toBe(false);
    expect(isShareFromOs(request({ headers: { 'Sec-Fetch-Site': 'same-site' } }), ORIGIN)).toBe(false);
  });

  test('anything but a top-level POST navigation is refused', () => {
    expect(isShareFromOs(request({ mode: 'cors', headers: { Origin: ORIGIN } }), ORIGIN)).toBe(false);
    expect(isShareFromOs(request({ mode: 'no-cors' }), ORIGIN)).toBe(false);
    expect(isShareFromOs(request({ method: 'GET' }), ORIGIN)).toBe(false);
  });
});

describe('plainFileName', () => {
  test('keeps the name, drops folders, dot segments and control characters', () => {
    expect(plainFileName('Invoice-<b>URGENT</b>.pdf')).toBe('Invoice-<b>URGENT</b>.pdf');
    expect(plainFileName('../../evil.pdf')).toBe('evil.pdf');
    expect(plainFileName('..\\..\\evil.pdf')).toBe('evil.pdf');
    expect(plainFileName('/etc/../passwd')).toBe('etc/passwd');
    expect(plainFileName('a\u0000b\u001fc.pdf')).toBe('abc.pdf');
    expect(plainFileName('../..')).toBe('shared file');
    expect(plainFileName('x'.repeat(500)).length).toBe(200);
  });
});

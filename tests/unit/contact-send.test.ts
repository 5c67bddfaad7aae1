import { describe, expect, test, vi } from 'vitest';
import {
  EMAIL_SEND_FORM_URL,
  EMPTY_CONTACT,
  MESSAGE_FAILED,
  MESSAGE_SENT,
  emailServiceConfig,
  isValidEmail,
  mailtoHref,
  sendContactMessage,
  validateContact,
  type ContactValues,
} from '../../src/pages/contact-send.ts';

const VALUES: ContactValues = {
  user_username: ' Ada ',
  user_email: 'ada@example.org',
  user_subject: 'Hi',
  user_message: 'Line 1\nLine 2',
};
const CONFIG = { serviceId: 'service_x', templateId: 'template_y', publicKey: 'key_z' };

describe('contact form logic', () => {
  test('the exact messages of spec §8', () => {
    expect(MESSAGE_SENT).toBe('Your message has been sent!');
    expect(MESSAGE_FAILED).toBe('Something went wrong. Please try again.');
    expect(EMAIL_SEND_FORM_URL).toBe('https://api.emailjs.com/api/v1.0/email/send-form');
  });

  test('all four fields are required (blank counts as empty)', () => {
    expect(Object.keys(validateContact(EMPTY_CONTACT))).toEqual([
      'user_username',
      'user_email',
      'user_subject',
      'user_message',
    ]);
    expect(validateContact({ ...VALUES, user_subject: '   ' })).toEqual({ user_subject: 'Please enter a subject.' });
    expect(validateContact(VALUES)).toEqual({});
  });

  test.each([
    ['ada@example.org', true],
    ['a.b+c@mail.co.uk', true],
    [' ada@example.org ', true],
    ['ada@example', false],
    ['ada example@x.org', false],
    ['@example.org', false],
    ['ada@.org', false],
    ['ada@@x.org', false],
    ['', false],
  ])('email %j valid: %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });

  test('configured only when service id, template id and public key are all set', () => {
    expect(emailServiceConfig({})).toBeNull();
    expect(emailServiceConfig({ VITE_EMAILJS_SERVICE_ID: 's', VITE_EMAILJS_TEMPLATE_ID: 't' })).toBeNull();
    expect(
      emailServiceConfig({ VITE_EMAILJS_SERVICE_ID: 's', VITE_EMAILJS_TEMPLATE_ID: 't', VITE_EMAILJS_PUBLIC_KEY: ' ' }),
    ).toBeNull();
    expect(
      emailServiceConfig({ VITE_EMAILJS_SERVICE_ID: 's', VITE_EMAILJS_TEMPLATE_ID: 't', VITE_EMAILJS_PUBLIC_KEY: 'k' }),
    ).toEqual({ serviceId: 's', templateId: 't', publicKey: 'k' });
  });

  test('sends a multipart POST to the form-send endpoint with the ids and the four fields', async () => {
    const fetchMock = vi.fn(async () => new Response('OK', { status: 200 }));
    await sendContactMessage(VALUES, CONFIG, fetchMock as unknown as typeof fetch);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(EMAIL_SEND_FORM_URL);
    expect(init.method).toBe('POST');
    const body = init.body as FormData;
    expect(Object.fromEntries(body.entries())).toEqual({
      service_id: 'service_x',
      template_id: 'template_y',
      user_id: 'key_z',
      user_username: 'Ada',
      user_email: 'ada@example.org',
      user_subject: 'Hi',
      user_message: 'Line 1\nLine 2',
    });
  });

  test.each([400, 403, 429, 451, 500])('rejects when the service answers %i', async (status) => {
    const fetchMock = vi.fn(async () => new Response('nope', { status }));
    await expect(sendContactMessage(VALUES, CONFIG, fetchMock as unknown as typeof fetch)).rejects.toThrow(
      String(status),
    );
  });

  test('rejects when the network fails', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(sendContactMessage(VALUES, CONFIG, fetchMock as unknown as typeof fetch)).rejects.toThrow(
      'Failed to fetch',
    );
  });

  test('the mailto: fallback carries the subject and message', () => {
    expect(mailtoHref('help@folio.test', VALUES)).toBe(
      'mailto:help@folio.test?subject=Hi&body=Line%201%0ALine%202%0A%0A%E2%80%94%20Ada',
    );
    expect(mailtoHref('help@folio.test', EMPTY_CONTACT)).toBe('mailto:help@folio.test');
  });
});

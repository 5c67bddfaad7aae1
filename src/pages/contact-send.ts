/**
 * The contact form's logic, kept free of React so it can be tested in Node: field validation
 * and sending through the email service's REST call (docs/deploying.md).
 */

export const CONTACT_FIELDS = ['user_username', 'user_email', 'user_subject', 'user_message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const EMPTY_CONTACT: ContactValues = { user_username: '', user_email: '', user_subject: '', user_message: '' };

export const MESSAGE_SENT = 'Your message has been sent!';
export const MESSAGE_FAILED = 'Something went wrong. Please try again.';
export const EMAIL_SEND_FORM_URL = 'https://api.emailjs.com/api/v1.0/email/send-form';

const REQUIRED_MESSAGES: Record<ContactField, string> = {
  user_username: 'Please enter your name.',
  user_email: 'Please enter your email address.',
  user_subject: 'Please enter a subject.',
  user_message: 'Please enter a message.',
};

/**
 * One @, something before it, a dot-separated domain after it, no spaces: what browsers call a valid email, give or
 * take.
 */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value.trim());
}

export function validateContact(values: ContactValues): ContactErrors {
  const errors: ContactErrors = {};
  for (const field of CONTACT_FIELDS) {
    if (!values[field].trim()) errors[field] = REQUIRED_MESSAGES[field];
  }
  if (!errors.user_email && !isValidEmail(values.user_email)) errors.user_email = 'Please enter a valid email address.';
  return errors;
}

export interface EmailServiceConfig {
  serviceId: string;
  templateId: string;
  publicKey: string;
}

/** The email service settings given at build time, or null when any of the three is missing. */
export function emailServiceConfig(
  env: Record<string, string | undefined> = import.meta.env,
): EmailServiceConfig | null {
  const serviceId = env.VITE_EMAILJS_SERVICE_ID?.trim();
  const templateId = env.VITE_EMAILJS_TEMPLATE_ID?.trim();
  const publicKey = env.VITE_EMAILJS_PUBLIC_KEY?.trim();
  return serviceId && templateId && publicKey ? { serviceId, templateId, publicKey } : null;
}

/**
 * Sends the message with the email service's form-send call (multipart: service_id, template_id,
 * user_id = public key, then the four fields). Resolves on a 2xx answer, rejects otherwise.
 */
export async function sendContactMessage(
  values: ContactValues,
  config: EmailServiceConfig,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const body = new FormData();
  body.append('service_id', config.serviceId);
  body.append('template_id', config.templateId);
  body.append('user_id', config.publicKey);
  for (const field of CONTACT_FIELDS) body.append(field, values[field].trim());
  const response = await fetchImpl(EMAIL_SEND_FORM_URL, { method: 'POST', body });
  if (!response.ok) throw new Error(`Email service answered ${response.status}`);
}

/** A mailto: link carrying the typed subject and message, for sites where sending is not configured. */
export function mailtoHref(address: string, values: ContactValues): string {
  const params = new URLSearchParams();
  if (values.user_subject.trim()) params.set('subject', values.user_subject.trim());
  const body = [values.user_message.trim(), values.user_username.trim() && `— ${values.user_username.trim()}`]
    .filter(Boolean)
    .join('\n\n');
  if (body) params.set('body', body);
  const query = params.toString().replace(/\+/g, '%20');
  return `mailto:${address}${query ? `?${query}` : ''}`;
}

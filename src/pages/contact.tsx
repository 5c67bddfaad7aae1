import { useRef, useState, type FormEvent } from 'react';
import { Icon } from '../app/icon.tsx';
import { SUPPORT_EMAIL } from '../app/links.ts';
import { usePageTitle } from '../app/page-title.ts';
import {
  CONTACT_FIELDS,
  EMPTY_CONTACT,
  MESSAGE_FAILED,
  MESSAGE_SENT,
  emailServiceConfig,
  mailtoHref,
  sendContactMessage,
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from './contact-send.ts';

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'failed' }
  | { kind: 'not-configured'; href: string };

const LABELS: Record<ContactField, string> = {
  user_username: 'Your name',
  user_email: 'Email address',
  user_subject: 'Subject',
  user_message: 'Message',
};

/** Contact: support block and the "Send a Message" form. */
export function ContactPage() {
  usePageTitle('Contact');
  const [values, setValues] = useState<ContactValues>(EMPTY_CONTACT);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const formRef = useRef<HTMLFormElement>(null);
  const config = emailServiceConfig();

  function update(field: ContactField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
    if (status.kind === 'sent') setStatus({ kind: 'idle' });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    const firstInvalid = CONTACT_FIELDS.find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    if (!config) {
      setStatus({ kind: 'not-configured', href: mailtoHref(SUPPORT_EMAIL, values) });
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await sendContactMessage(values, config);
      setValues(EMPTY_CONTACT);
      setStatus({ kind: 'sent' });
    } catch {
      // What was typed stays in the form, so trying again costs nothing.
      setStatus({ kind: 'failed' });
    }
  }

  function field(name: ContactField, input: 'input' | 'email' | 'textarea') {
    const id = `contact-${name}`;
    const errorId = `${id}-error`;
    const common = {
      id,
      name,
      value: values[name],
      required: true,
      'aria-invalid': errors[name] ? true : undefined,
      'aria-describedby': errors[name] ? errorId : undefined,
    };
    return (
      <div className="field">
        <label htmlFor={id}>{LABELS[name]}</label>
        {input === 'textarea' ? (
          <textarea {...common} rows={6} onChange={(e) => update(name, e.target.value)} />
        ) : (
          <input
            {...common}
            type={input === 'email' ? 'email' : 'text'}
            autoComplete={name === 'user_email' ? 'email' : name === 'user_username' ? 'name' : 'off'}
            onChange={(e) => update(name, e.target.value)}
          />
        )}
        {errors[name] && (
          <p id={errorId} className="field-error">
            {errors[name]}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="container page">
      <header className="page-header">
        <h1>Contact Us</h1>
        <p className="lead">Questions, ideas or a tool that did not behave? We would like to hear about it.</p>
      </header>
      <div className="contact-grid">
        <aside className="card contact-info" aria-labelledby="email-support-title">
          <span className="benefit-icon">
            <Icon name="mail" size={22} />
          </span>
          <h2 id="email-support-title">Email support</h2>
          <p>
            Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We reply within 24 hours on business days.
          </p>
          <p className="muted">
            Please do not attach confidential documents: describe the problem instead. Folio never needs your files to
            help you, because it never receives them.
          </p>
        </aside>

        <section className="card contact-form" aria-labelledby="send-title">
          <h2 id="send-title">Send a Message</h2>
          <form ref={formRef} onSubmit={submit} noValidate>
            <div className="field-row">
              {field('user_username', 'input')}
              {field('user_email', 'email')}
            </div>
            {field('user_subject', 'input')}
            {field('user_message', 'textarea')}
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={status.kind === 'sending'}>
                {status.kind === 'sending' ? 'Sending…' : 'Send Message'}
              </button>
            </div>
            <div className="form-status" role="status" aria-live="polite">
              {status.kind === 'sent' && (
                <p className="notice success">
                  <Icon name="check" size={18} /> {MESSAGE_SENT}
                </p>
              )}
              {status.kind === 'not-configured' && (
                <p className="notice info">
                  Sending messages from this form is not configured on this site. Your text is still here —{' '}
                  <a href={status.href}>email it to {SUPPORT_EMAIL}</a> with your own mail app instead.
                </p>
              )}
            </div>
            <div className="form-status" role="alert">
              {status.kind === 'failed' && <p className="notice error">{MESSAGE_FAILED}</p>}
            </div>
          </form>
        </section>
      </div>
    </div>
  );
}

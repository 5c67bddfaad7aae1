import { Link } from 'react-router';
import { usePageTitle } from '../app/page-title.ts';
import { SUPPORT_EMAIL } from '../app/links.ts';

export const POLICY_DATE = '06/23/2025';

/** Privacy Policy: dates; file handling, personal information, cookies, third parties, contact, security, changes. */
export function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <div className="container page narrow prose">
      <header className="page-header">
        <h1>Privacy Policy</h1>
        <p className="meta">
          Effective date: {POLICY_DATE} · Last updated: {POLICY_DATE}
        </p>
        <p className="lead">
          Short version: your files never leave your device, and we do not collect anything about you.
        </p>
      </header>

      <section>
        <h2>File handling</h2>
        <p>
          Every Folio tool runs inside your web browser. When you choose a file, your browser reads it into memory on
          your device and processes it there, in a background worker. The file, its pages, its text and any password you
          type are never uploaded to Folio or to anyone else. Results are created on your device and saved by your
          browser as a normal download. Files are kept only in memory and are released when you clear the tool, start
          over, or close the tab. Because we never receive your files, we cannot view, store, share or recover them.
        </p>
      </section>

      <section>
        <h2>Personal information</h2>
        <p>
          You can use every tool without an account, so we do not ask for your name, email address or any other personal
          information. If you write to us through the contact form, the name, email address, subject and message you
          enter are sent to us by email so that we can reply; we use them for nothing else.
        </p>
      </section>

      <section>
        <h2>Cookies and local storage</h2>
        <p>
          Folio sets no cookies and uses no analytics or advertising trackers. It stores one preference in your
          browser&apos;s local storage — whether you chose the light or dark theme — and, if you install it as an app, a
          copy of the application files so that it works offline. Both stay on your device and you can clear them in
          your browser&apos;s settings at any time.
        </p>
      </section>

      <section>
        <h2>Third-party services</h2>
        <p>
          The tools load nothing from other servers: every script, font and WebAssembly module is served by Folio
          itself. The only third-party service is the email delivery service that forwards contact-form messages, and it
          is contacted only when you press Send on the contact form. The external social-media links in the footer take
          you to those sites, which have their own policies.
        </p>
      </section>

      <section>
        <h2>Security</h2>
        <p>
          Keeping files on your device removes the largest risk of online document tools: a copy of your data on someone
          else&apos;s server. Folio's source code is open for anyone to review. Your files are as safe as the device and
          browser you use, so keep them up to date.
        </p>
      </section>

      <section>
        <h2>Changes to this policy</h2>
        <p>
          If this policy changes, the new version will be published on this page with a new &ldquo;last updated&rdquo;
          date. Continuing to use Folio after a change means you accept the updated policy.
        </p>
      </section>

      <section>
        <h2>Contact</h2>
        <p>
          Questions about privacy? Use the <Link to="/contact">contact form</Link> or write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </section>

      <p>
        <Link to="/" className="button secondary">
          Back to Home
        </Link>
      </p>
    </div>
  );
}

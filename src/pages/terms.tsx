import { Link } from 'react-router';
import { usePageTitle } from '../app/page-title.ts';
import { SUPPORT_EMAIL } from '../app/links.ts';
import { POLICY_DATE } from './privacy.tsx';

/** Terms of Service: dates and the eight sections, with a Back to Home link. */
export function TermsPage() {
  usePageTitle('Terms of Service');
  return (
    <div className="container page narrow prose">
      <header className="page-header">
        <h1>Terms of Service</h1>
        <p className="meta">
          Effective date: {POLICY_DATE} · Last updated: {POLICY_DATE}
        </p>
      </header>

      <section>
        <h2>1. Acceptance of Terms</h2>
        <p>By using Folio you agree to these terms. If you do not agree, please do not use the service.</p>
      </section>

      <section>
        <h2>2. Use of Tools</h2>
        <p>
          You may use Folio&apos;s tools free of charge for personal, academic or commercial purposes. You agree not to
          misuse the service: do not use it to distribute malicious content, do not attempt to disrupt or
          reverse-engineer the service, and do not drive it with bots or automated scripts in a way that burdens it.
        </p>
      </section>

      <section>
        <h2>3. File Handling</h2>
        <p>
          Files you process with Folio stay on your device: they are processed in your browser and are never uploaded to
          our servers. You remain responsible for the files you process and for keeping copies of your originals.
        </p>
      </section>

      <section>
        <h2>4. Prohibited Content</h2>
        <p>You may not use Folio to process or create:</p>
        <ul>
          <li>illegal material, or copyrighted material you have no licence to use;</li>
          <li>content that harasses, defames or threatens others, or promotes violence;</li>
          <li>viruses, malware or any other harmful code.</li>
        </ul>
      </section>

      <section>
        <h2>5. Privacy</h2>
        <p>
          How we treat information is described in our <Link to="/privacy-policy">Privacy Policy</Link>. In short: we
          never receive your files and collect no personal data beyond what you send us through the contact form.
        </p>
      </section>

      <section>
        <h2>6. Limitation of Liability</h2>
        <p>
          Folio is provided &ldquo;as is&rdquo;, without warranty of any kind, express or implied. To the fullest extent
          permitted by law, we are not liable for any loss or damage arising from your use of the service, including
          loss of data or results that do not meet your expectations.
        </p>
      </section>

      <section>
        <h2>7. Modifications</h2>
        <p>
          We may change, suspend or discontinue any part of Folio at any time, and we may update these terms. Continued
          use of the service after a change means you accept the latest version of the terms.
        </p>
      </section>

      <section>
        <h2>8. Contact</h2>
        <p>
          Questions about these terms? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the{' '}
          <Link to="/contact">contact form</Link>.
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

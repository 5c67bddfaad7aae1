import { Link } from 'react-router';
import { fileTools, tools } from '../catalogue/index.ts';
import { usePageTitle } from '../app/page-title.ts';
import { OfflinePanel } from '../pwa/offline-panel.tsx';

/** About: mission, privacy and simplicity, differentiators, who we serve, vision. */
export function AboutPage() {
  usePageTitle('About');
  const pdfCount = tools.filter((t) => t.groups.menu === 'PDF Tools').length;
  return (
    <div className="container page narrow prose">
      <header className="page-header">
        <h1>About Folio</h1>
        <p className="lead">
          PDF and everyday tools that respect the simple idea that your files are nobody else&apos;s business.
        </p>
      </header>

      <section>
        <h2>Our mission</h2>
        <p>
          Most online PDF services ask you to upload a contract, a payslip or a medical letter to someone else&apos;s
          server just to merge two files or remove a page. Folio exists to make that unnecessary. It gives everyone the
          everyday document tools they need — {pdfCount} for PDFs and {tools.length - pdfCount} small utilities — and
          runs every one of them on the visitor&apos;s own device.
        </p>
      </section>

      <section>
        <h2>Privacy and simplicity</h2>
        <p>
          When you use a Folio tool, your browser does the work in a background worker using open-source libraries
          compiled for the web. The file is read from your disk into memory, processed, and handed back to you as a
          download. It is never sent anywhere, so there is no copy to store, scan or delete. There is no account, no
          cookie banner to click through and no tracking. Open the page, choose a tool, get your result.
        </p>
      </section>

      <section>
        <h2>What makes Folio different</h2>
        <ul>
          <li>
            On-device processing for all {fileTools.length} file tools, with real progress and a Cancel button that
            actually stops the work.
          </li>
          <li>No watermark, no page or file-count limit, no &ldquo;premium&rdquo; tier.</li>
          <li>Installable as an app that keeps working offline.</li>
          <li>Open source under the MIT licence, so anyone can check what it does with their files.</li>
        </ul>
      </section>

      <OfflinePanel />

      <section>
        <h2>Who we serve</h2>
        <p>
          Students assembling coursework, professionals handling confidential documents, freelancers sending invoices,
          small businesses without an IT department, and anyone who just needs to rotate a scan or shrink a file before
          emailing it. The {tools.length - pdfCount} utilities — from a password generator to a JSON formatter — cover
          the small jobs that come up on the same day.
        </p>
      </section>

      <section>
        <h2>Our vision</h2>
        <p>
          We believe the browser is now powerful enough to do nearly everything a desktop PDF suite does. Folio will
          keep adding tools and improving the quality of its conversions while holding on to the one rule that matters:
          your documents stay on your device.
        </p>
        <p>
          <Link to="/tools" className="button primary">
            Explore the tools
          </Link>
        </p>
      </section>
    </div>
  );
}

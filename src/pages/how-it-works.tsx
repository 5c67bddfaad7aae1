import { Link } from 'react-router';
import { Icon, type UiIconName } from '../app/icon.tsx';
import { usePageTitle } from '../app/page-title.ts';

export const TAGLINE = 'No Installs. No Signup. 100% Free.';

const STEPS: readonly { title: string; text: string; icon: UiIconName }[] = [
  {
    title: 'Upload Your File',
    icon: 'upload',
    text:
      'Drag and drop a file onto the tool or click to select it: PDFs, Word, Excel and PowerPoint documents, ' +
      'images and more. "Upload" here means handing it to your browser — it is read on your device, not sent to a ' +
      'server.',
  },
  {
    title: 'Apply Tool Instantly',
    icon: 'bolt',
    text:
      'Pick your options and start. The work runs in a background thread on your own device, with a progress bar ' +
      'and a Cancel button. No sign-up and no waiting in a queue.',
  },
  {
    title: 'Download Your Result',
    icon: 'download',
    text:
      'Your result downloads straight away with a sensible file name. Because nothing was uploaded, nothing needs ' +
      'deleting later: the files are released from memory when you clear the tool or close the tab.',
  },
  {
    title: 'Done',
    icon: 'check',
    text:
      'That is all. Use the next tool, or install Folio as an app so it is ready — even offline — the next time ' +
      'you need it.',
  },
];

/** How It Works: four steps and the tagline. */
export function HowItWorksPage() {
  usePageTitle('How It Works');
  return (
    <div className="container page">
      <header className="page-header center">
        <h1>How It Works</h1>
        <p className="lead">Four steps, all on your device.</p>
      </header>
      <ol className="how-steps">
        {STEPS.map((step, index) => (
          <li key={step.title} className="card how-step">
            <span className="how-number" aria-hidden="true">
              {index + 1}
            </span>
            <span className="benefit-icon">
              <Icon name={step.icon} size={22} />
            </span>
            <h2>
              <span className="visually-hidden">Step {index + 1}: </span>
              {step.title}
            </h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
      <div className="cta-box">
        <p className="tagline">{TAGLINE}</p>
        <div className="button-row center">
          <Link to="/tools" className="button light large">
            Explore All Tools
          </Link>
        </div>
      </div>
    </div>
  );
}

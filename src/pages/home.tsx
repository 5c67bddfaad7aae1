import { Link } from 'react-router';
import { heroTiles, popularTools, tools } from '../catalogue/index.ts';
import { Icon, toneClass, type UiIconName } from '../app/icon.tsx';
import { usePageTitle } from '../app/page-title.ts';
import { ToolCard } from './tool-card.tsx';

const BENEFITS: readonly { icon: UiIconName; title: string; text: string }[] = [
  {
    icon: 'shield',
    title: 'Private by design',
    text:
      'Files are processed inside your browser. Nothing is uploaded, so there is nothing to leak, log or delete ' +
      'later.',
  },
  {
    icon: 'user-off',
    title: 'No sign-up, ever',
    text: 'Open a tool and use it. There is no account, no email address to give and no trial that runs out.',
  },
  {
    icon: 'infinity',
    title: 'No watermarks or limits',
    text:
      'Your results are yours: no stamp on the pages, no daily quota, no file-count cap beyond what your device ' +
      'can hold.',
  },
  {
    icon: 'offline',
    title: 'Works offline',
    text:
      'After your first visit every tool keeps working with the network switched off. Install Folio as an app if ' +
      'you like: it opens from your home screen or dock.',
  },
  {
    icon: 'bolt',
    title: 'Fast on your own hardware',
    text:
      'Work runs in background threads with WebAssembly, so the page stays responsive and there is no upload to ' +
      'wait for.',
  },
  {
    icon: 'device',
    title: 'Any device',
    text: 'Phone, tablet or desktop, on any modern browser. The layout adapts and every tool works with touch.',
  },
];

const FIGURES: readonly { value: string; label: string }[] = [
  { value: String(tools.length), label: 'tools in one place' },
  { value: '0 bytes', label: 'uploaded to any server' },
  { value: 'Offline', label: 'works without a connection' },
  { value: 'Free', label: 'and open source (MIT)' },
];

/** Home: hero, popular tools, six benefits, honest figures, closing call to action. */
export function HomePage() {
  usePageTitle('');
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <div className="hero-text">
            <p className="eyebrow">
              <Icon name="shield" size={16} /> 100% in your browser
            </p>
            <h1>
              Every PDF tool you need, <span className="accent">without uploading a thing</span>
            </h1>
            <p className="lead">
              Merge, split, compress, convert, protect and edit PDFs — plus eight handy utilities. Folio does the work
              on your device, so your documents stay yours.
            </p>
            <div className="button-row">
              <Link to="/tools" className="button primary large">
                Explore All Tools <Icon name="arrow-right" size={20} />
              </Link>
              <Link to="/how-it-works" className="button secondary large">
                How It Works
              </Link>
            </div>
          </div>
          <div className="hero-art" aria-hidden="true">
            {/* A varied dozen, picked by the entries' `home.heroTile`. */}
            {heroTiles.map((tool) => (
              <span key={tool.id} className={`hero-tile ${toneClass(tool.icon)}`}>
                <Icon name={tool.icon} size={34} />
              </span>
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="popular-title">
        <div className="container">
          <div className="section-head">
            <h2 id="popular-title">Popular Tools</h2>
            <Link to="/tools" className="text-link">
              All {tools.length} tools <Icon name="arrow-right" size={16} />
            </Link>
          </div>
          <ul className="card-grid four">
            {popularTools.map((tool) => (
              <li key={tool.id}>
                <ToolCard tool={tool} cta="Try now" />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section alt" aria-labelledby="why-title">
        <div className="container">
          <div className="section-head center">
            <h2 id="why-title">Why choose Folio</h2>
            <p className="lead">The convenience of an online PDF service, without handing your files to one.</p>
          </div>
          <ul className="benefit-grid">
            {BENEFITS.map((benefit) => (
              <li key={benefit.title} className="benefit card">
                <span className="benefit-icon">
                  <Icon name={benefit.icon} size={22} />
                </span>
                <h3>{benefit.title}</h3>
                <p>{benefit.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="figures" aria-label="Folio in figures">
        <div className="container">
          <dl className="figures-grid">
            {FIGURES.map((figure) => (
              <div key={figure.label} className="figure">
                <dt>{figure.label}</dt>
                <dd>{figure.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className="section" aria-labelledby="cta-title">
        <div className="container">
          <div className="cta-box">
            <h2 id="cta-title">Ready when you are</h2>
            <p>No signup. Nothing to set up. 100% free. Pick a tool and your file never leaves this device.</p>
            <div className="button-row center">
              <Link to="/tools" className="button light large">
                Get Started Now
              </Link>
              <Link to="/contact" className="button ghost large">
                Contact Support
              </Link>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}

import { Link } from 'react-router';
import { Icon } from './icon.tsx';
import { BLOG_URL, SOCIAL_LINKS } from './links.ts';

export const FOOTER_TAGLINE = 'Your all-in-one solution for PDF conversion, editing, and utility tools.';

/** Footer: tagline, Quick Links, Connect With Us, and the copyright line. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Link to="/" className="footer-logo" aria-label="Folio home">
            <img src="/logo.png" width={120} height={30} alt="Folio" />
          </Link>
          <p>{FOOTER_TAGLINE}</p>
          <p className="footer-note">
            <Icon name="shield" size={16} /> Every file is processed on your device. Nothing is uploaded.
          </p>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links">Quick Links</h2>
          <ul>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/contact">Contact Us</Link>
            </li>
            <li>
              <Link to="/how-it-works">How It Works</Link>
            </li>
            {BLOG_URL && (
              <li>
                <a href={BLOG_URL} target="_blank" rel="noopener noreferrer">
                  Blog
                </a>
              </li>
            )}
          </ul>
        </nav>
        <nav aria-labelledby="footer-connect">
          <h2 id="footer-connect">Connect With Us</h2>
          <ul className="social-list">
            {SOCIAL_LINKS.map((link) => (
              <li key={link.label}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  <Icon name={link.icon} size={18} />
                  {link.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>© {new Date().getFullYear()} Folio. All rights reserved.</p>
        <p>No sign-up. No uploads. 100% free.</p>
      </div>
    </footer>
  );
}

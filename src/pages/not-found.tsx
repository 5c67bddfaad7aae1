import { Link } from 'react-router';
import { Icon } from '../app/icon.tsx';
import { usePageTitle } from '../app/page-title.ts';

/** A real 404 page inside the app frame (never the router's "Unexpected Application Error!"). */
export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="container page narrow center-page">
      <p className="error-code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="lead">
        The page you asked for does not exist or has moved. Everything Folio offers is one click away:
      </p>
      <div className="button-row center">
        <Link to="/" className="button primary">
          <Icon name="home" size={18} /> Go to the home page
        </Link>
        <Link to="/tools" className="button secondary">
          <Icon name="tools" size={18} /> Explore all tools
        </Link>
      </div>
    </div>
  );
}

/** Shown when a page fails to render (or its chunk fails to load): an apology and a way back. */
export function RouteErrorPage() {
  return (
    <div className="container page narrow center-page">
      <h1>Something went wrong</h1>
      <p className="lead">
        This page could not be shown. Reloading usually helps — if you were offline, reconnect first. Your files never
        left your device.
      </p>
      <div className="button-row center">
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <a className="button secondary" href="/">
          Go to the home page
        </a>
      </div>
    </div>
  );
}

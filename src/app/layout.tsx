import { Link, NavLink, Outlet } from 'react-router';

/** App frame: header, content, footer. (Minimal; the foundation issue completes it.) */
export function Layout() {
  return (
    <>
      <header className="site-header">
        <Link to="/" aria-label="Folio home"><img src="/logo.svg" width={160} alt="Folio" /></Link>
        <nav aria-label="Main">
          <NavLink to="/">Home</NavLink> <NavLink to="/tools">Tools</NavLink> <NavLink to="/about">About</NavLink>{' '}
          <NavLink to="/contact">Contact</NavLink>
        </nav>
      </header>
      <main id="main">
        <Outlet />
      </main>
      <footer className="site-footer">© {new Date().getFullYear()} Folio</footer>
    </>
  );
}

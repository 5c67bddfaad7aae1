import { Suspense, useCallback, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import type { ToolId } from '../catalogue/types.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { SideMenu } from './side-menu.tsx';

/** New pages start at the top; Back and Forward keep the browser's own restoration. */
function useScrollToTopOnPush() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type === 'PUSH' || type === 'REPLACE') window.scrollTo(0, 0);
  }, [pathname, type]);
}

/** App frame: fixed header, slide-in Tool Menu (closed at first), content, footer. */
export function Layout() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The shared "active tool": the one last picked in the Tool Menu.
  const [activeTool, setActiveTool] = useState<ToolId | null>(null);
  const { pathname } = useLocation();
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const openMenu = useCallback(() => setMenuOpen(true), []);
  useScrollToTopOnPush();

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header menuOpen={menuOpen} onMenuToggle={() => setMenuOpen((open) => !open)} />
      <SideMenu
        open={menuOpen}
        onOpen={openMenu}
        onClose={closeMenu}
        activeTool={activeTool}
        onPick={(id) => {
          // The link itself navigates to /tools/<id>.
          setActiveTool(id);
          setMenuOpen(false);
        }}
      />
      <main id="main" tabIndex={-1}>
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<div className="route-loading" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
    </>
  );
}

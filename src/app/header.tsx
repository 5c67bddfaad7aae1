import { Link, NavLink } from 'react-router';
import { Icon } from './icon.tsx';
import { useTheme } from './theme.ts';
import { ToolsDropdown } from './tools-dropdown.tsx';
import { InstallButton } from '../pwa/install-button.tsx';

/**
 * The fixed header: logo, Home / Tools (dropdown) / About / Contact, theme toggle, Install app when the browser offers
 * it; on phones a menu button.
 */
export function Header({ menuOpen, onMenuToggle }: { menuOpen: boolean; onMenuToggle: () => void }) {
  const [theme, toggleTheme] = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="logo-link" aria-label="Folio home">
          <img src="/logo.png" width={160} height={40} alt="Folio" />
        </Link>
        <nav className="main-nav" aria-label="Main">
          <NavLink to="/" end className="nav-link">
            Home
          </NavLink>
          <ToolsDropdown />
          <NavLink to="/about" className="nav-link">
            About
          </NavLink>
          <NavLink to="/contact" className="nav-link">
            Contact
          </NavLink>
        </nav>
        <div className="header-actions">
          <InstallButton place="header" />
          <button
            type="button"
            className="icon-button theme-toggle"
            onClick={toggleTheme}
            aria-label={`Switch to ${next} theme`}
            title={`Switch to ${next} theme`}
          >
            <Icon name={theme === 'dark' ? 'sun' : 'moon'} size={20} />
          </button>
          <button
            type="button"
            className="icon-button menu-button"
            onClick={onMenuToggle}
            aria-expanded={menuOpen}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          >
            <Icon name={menuOpen ? 'close' : 'menu'} size={22} />
          </button>
        </div>
      </div>
    </header>
  );
}

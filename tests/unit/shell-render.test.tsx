/**
 * The app frame rendered to static HTML in Node (react-dom/server + MemoryRouter): the header,
 * the Tools dropdown's columns, the Tool Menu's sections, the footer, and the Home page.
 * The interactive behaviour is tested in Chromium (tests/e2e/shell.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { AppRoutes } from '../../src/app/router.tsx';
import { Icon, ICON_NAMES, toneClass } from '../../src/app/icon.tsx';
import { sections, tools } from '../../src/catalogue/index.ts';

function render(path: string): string {
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

describe('app frame (static render)', () => {
  const html = render('/');

  test('header: logo 160 px wide linking home, the four links, the theme toggle', () => {
    expect(html).toMatch(/<a[^>]*aria-label="Folio home"[^>]*href="\/"|<a[^>]*href="\/"[^>]*aria-label="Folio home"/);
    expect(html).toContain('<img src="/logo.png" width="160"');
    for (const label of ['Home', 'About', 'Contact']) expect(html).toContain(`>${label}</a>`);
    expect(html).toMatch(/aria-expanded="false"[^>]*>Tools/);
    expect(html).toContain('aria-label="Switch to dark theme"');
  });

  test('the dropdown and the Tool Menu hold every catalogue list, with every tool linked', () => {
    for (const column of sections.dropdown) expect(html).toContain(`>${column.title.replace('&', '&amp;')}</h2>`);
    for (const section of sections.menu) expect(html).toContain(`<span>${section.title}</span>`);
    for (const tool of tools) {
      // Once in the dropdown, once in the Tool Menu (Home adds its popular cards).
      expect(html.split(`href="/tools/${tool.id}"`).length - 1, tool.id).toBeGreaterThanOrEqual(2);
    }
  });

  test('footer: tagline, quick links, social links in a new tab, copyright line', () => {
    expect(html).toContain('Your all-in-one solution for PDF conversion, editing, and utility tools.');
    expect(html.match(/target="_blank" rel="noopener noreferrer"/g)?.length).toBeGreaterThanOrEqual(3);
    expect(html).toContain(`© ${new Date().getFullYear()} Folio`);
  });

  test('the home page is in the first chunk and renders at once', () => {
    expect(html).toContain('Every PDF tool you need');
    expect(html).toContain('Popular Tools');
  });

  test('an unknown path renders the 404 page inside the frame', () => {
    const page = render('/definitely/not/here');
    expect(page).toContain('Page not found');
    expect(page).toContain('site-header');
  });
});

describe('icons', () => {
  test('every catalogue icon and frame icon draws at least one path', () => {
    for (const name of ICON_NAMES) {
      const svg = renderToStaticMarkup(<Icon name={name} />);
      expect(svg, name).toMatch(/<path d="M/);
      expect(svg).toContain('aria-hidden="true"');
    }
    for (const tool of tools) expect(toneClass(tool.icon)).toMatch(/^tone-\w+$/);
  });

  test('a labelled icon is an image with that name', () => {
    expect(renderToStaticMarkup(<Icon name="lock" label="Locked" />)).toContain('role="img" aria-label="Locked"');
  });
});

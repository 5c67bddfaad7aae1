/**
 * Adding a tool is adding its files: a made-up entry, handed to the catalogue exactly as
 * import.meta.glob hands it the real ones, shows up everywhere a tool is listed or answered — the
 * header dropdown, the Tool Menu, the home page, the /tools page, its own /tools/<id> page and the
 * /api contract — with no list edited anywhere else.
 */
import { describe, expect, test, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { FileToolEntry } from '../../src/catalogue/types.ts';

const NEW_TOOL = vi.hoisted((): FileToolEntry => ({
  id: 'stamp-pdf',
  name: 'Stamp PDF',
  description: 'Put a date stamp on pages',
  icon: 'edit',
  order: 17.5,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  home: { popular: 2.5, heroTile: 99 },
  kind: 'file',
  endpoint: '/api/pdf/stamp',
  fileField: 'file',
  multiple: false,
  accepts: { extensions: ['.pdf'], mimeTypes: ['application/pdf'], label: 'PDF files' },
  defaultFilename: 'stamp-pdf-result.pdf',
  options: [{ kind: 'text', name: 'text', label: 'Stamp text', default: 'APPROVED' }],
  content: {
    overview: 'Stamp PDF puts a date stamp on every page.',
    features: ['A stamp'],
    usage: ['Pick a PDF.'],
    perfectFor: ['Invoices'],
    privacy: 'Stays on your device.',
    whyUse: 'It is quick.',
  },
}));

vi.mock('../../src/catalogue/index.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/catalogue/index.ts')>();
  const { buildCatalogue } = await import('../../src/catalogue/build.ts');
  const loaders = import.meta.glob<{ tool: FileToolEntry }>('../../src/catalogue/tools/*.ts');
  const modules = Object.fromEntries(
    await Promise.all(Object.entries(loaders).map(async ([path, load]) => [path, await load()])),
  );
  return { ...actual, ...buildCatalogue({ ...modules, '../../src/catalogue/tools/stamp-pdf.ts': { tool: NEW_TOOL } }) };
});

const { tools, sections } = await import('../../src/catalogue/index.ts');
const { AppRoutes } = await import('../../src/app/router.tsx');
const { ToolsPage } = await import('../../src/pages/tools.tsx');
const { ToolDetailRoute } = await import('../../src/pages/tool-detail.tsx');
const { answerApiRequest } = await import('../../mock-api/api-core.ts');

const link = `href="/tools/${NEW_TOOL.id}"`;

/** The HTML of the first element that opens with `start`, up to its matching `</tag>`. */
function element(html: string, start: string): string {
  const from = html.indexOf(start);
  expect(from, start).toBeGreaterThanOrEqual(0);
  const tag = /^<(\w+)/.exec(start)![1];
  let depth = 0;
  const re = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  re.lastIndex = from;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return html.slice(from, m.index + m[0].length);
  }
  throw new Error(`unclosed ${start}`);
}

describe('a new catalogue file is all it takes to list a tool', () => {
  const home = renderToStaticMarkup(
    <MemoryRouter initialEntries={['/']}>
      <AppRoutes />
    </MemoryRouter>,
  );

  test('the catalogue places it by its `order` and in the section it names in each list', () => {
    const ids = tools.map((t) => t.id);
    expect(ids.indexOf('stamp-pdf')).toBe(ids.indexOf('add-watermark') + 1);
    expect(sections.dropdown.find((s) => s.title === 'Edit & Organize')?.tools).toContain(NEW_TOOL);
    expect(sections.toolsPage.find((s) => s.title === 'Organize & Edit PDF')?.tools).toContain(NEW_TOOL);
    expect(sections.menu.find((s) => s.title === 'PDF Tools')?.tools).toContain(NEW_TOOL);
  });

  test('header dropdown: in its column, with its description', () => {
    const column = element(home, '<section class="dropdown-column" aria-label="Edit &amp; Organize">');
    expect(column).toContain(link);
    expect(column).toContain('Put a date stamp on pages');
    expect(element(home, '<div class="dropdown-footer">')).toContain(`Explore all ${tools.length} tools`);
  });

  test('Tool Menu: in its section, and counted', () => {
    const menu = element(home, '<aside class="side-menu"');
    const pdfSection = menu.slice(menu.indexOf('<span>PDF Tools</span>'), menu.indexOf('<span>Utility Tools</span>'));
    expect(pdfSection).toContain(link);
    expect(pdfSection).toContain(`<span class="count">${sections.menu[0].tools.length}</span>`);
  });

  test('home: a Popular Tools card at the place it asked for, a hero tile, the tool count', () => {
    const popular = element(home, '<ul class="card-grid four">');
    const order = [...popular.matchAll(/data-tool-id="([^"]+)"/g)].map((m) => m[1]);
    expect(order.indexOf('stamp-pdf')).toBe(2);
    expect(element(home, '<div class="hero-art"').match(/class="hero-tile/g)).toHaveLength(
      tools.filter((t) => t.home?.heroTile !== undefined).length,
    );
    expect(home).toContain(`All ${tools.length} tools`);
  });

  test('/tools: a card in its group', () => {
    const page = renderToStaticMarkup(
      <MemoryRouter>
        <ToolsPage />
      </MemoryRouter>,
    );
    const groups = page.split('<section class="tool-group"').slice(1);
    const group = groups.find((g) => g.includes('Organize &amp; Edit PDF'));
    expect(group).toContain(`data-tool-id="${NEW_TOOL.id}"`);
  });

  test('/tools/<id>: its own page with its copy', () => {
    const page = renderToStaticMarkup(
      <MemoryRouter initialEntries={[`/tools/${NEW_TOOL.id}`]}>
        <Routes>
          <Route path="/tools/:toolId" element={<ToolDetailRoute />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(page).toContain('<h1>Stamp PDF</h1>');
    expect(page).toContain(NEW_TOOL.content.overview);
  });

  test('/api: its endpoint is answered, its options read from the entry, the result named', async () => {
    const form = new FormData();
    form.append('file', new File([new Uint8Array([37, 80, 68, 70])], 'invoice.pdf'));
    const runner = vi.fn(async () => ({
      bytes: new Uint8Array([1, 2, 3]),
      mime: 'application/pdf',
      filename: 'invoice-stamped.pdf',
    }));
    const response = await answerApiRequest(
      new Request('http://folio.test/api/pdf/stamp', { method: 'POST', body: form }),
      runner,
    );
    expect(response?.status).toBe(200);
    expect(response?.headers.get('Content-Disposition')).toContain('invoice-stamped.pdf');
    expect(runner).toHaveBeenCalledWith('stamp-pdf', expect.any(Array), { text: 'APPROVED' }, expect.any(Object));
  });
});

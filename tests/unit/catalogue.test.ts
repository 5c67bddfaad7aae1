/**
 * The catalogue holds together: whatever tools exist, each has its files (entry, content, engine or
 * form), sits once in every list of the UI, and is described completely. No test here names how many
 * tools there are; adding one is checked by tests/unit/catalogue-new-tool.test.tsx.
 */
import { describe, expect, test } from 'vitest';
import {
  tools,
  fileTools,
  utilityTools,
  defaultValues,
  sections,
  popularTools,
  heroTiles,
} from '../../src/catalogue/index.ts';
import { buildCatalogue, type ToolModules } from '../../src/catalogue/build.ts';
import { SECTION_TITLES, type ToolEntry, type ToolList } from '../../src/catalogue/types.ts';
import { engineIds, loadEngine } from '../../workers/engine/registry.ts';
import { formIds } from '../../src/tool-ui/forms/registry.ts';

const idsOf = (list: readonly ToolEntry[]) => list.map((t) => t.id);
const fileNames = (modules: Record<string, unknown>) => Object.keys(modules).map((p) => p.replace(/^.*\/|\.ts$/g, ''));
const contentModules = import.meta.glob<{ content: ToolEntry['content'] }>('../../src/catalogue/content/*.ts', {
  eager: true,
});

describe('catalogue', () => {
  test('ids and places are unique; catalogue order follows `order`', () => {
    expect(new Set(idsOf(tools)).size).toBe(tools.length);
    expect(new Set(tools.map((t) => t.order)).size).toBe(tools.length);
    expect(tools.map((t) => t.order)).toEqual([...tools.map((t) => t.order)].sort((a, b) => a - b));
    for (const tool of tools) expect(tool.id, tool.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test('every entry has its content file, and every content file belongs to an entry', () => {
    expect(fileNames(contentModules).sort()).toEqual(idsOf(tools).sort());
    for (const tool of tools)
      expect(tool.content, tool.id).toBe(contentModules[`../../src/catalogue/content/${tool.id}.ts`].content);
  });

  test('every file tool has an engine in workers/engine/tools/, and every engine a file tool', () => {
    expect(engineIds().sort()).toEqual(idsOf(fileTools).sort());
  });

  test('every utility has its form in src/tool-ui/forms/; every form belongs to a tool', () => {
    const forms = new Set(formIds());
    for (const tool of utilityTools) expect(forms.has(tool.id), tool.id).toBe(true);
    for (const id of forms) expect(idsOf(tools), `forms/${id}.tsx`).toContain(id);
  });

  test('each list of the UI holds every tool exactly once, in a section of that list', () => {
    for (const list of Object.keys(SECTION_TITLES) as ToolList[]) {
      const listed = sections[list].flatMap((s) => idsOf(s.tools));
      expect(listed.sort(), list).toEqual(idsOf(tools).sort());
      for (const section of sections[list]) expect(SECTION_TITLES[list], list).toContain(section.title);
    }
  });

  test("the home page's picks have distinct places", () => {
    expect(popularTools.length).toBeGreaterThan(0);
    expect(new Set(popularTools.map((t) => t.home?.popular)).size).toBe(popularTools.length);
    expect(new Set(heroTiles.map((t) => t.home?.heroTile)).size).toBe(heroTiles.length);
  });

  test('a tool taking several files sends them under "files", one file under "file"', () => {
    for (const tool of fileTools) expect(tool.fileField, tool.id).toBe(tool.multiple ? 'files' : 'file');
  });

  test('endpoints are unique /api paths and option defaults are valid', () => {
    expect(new Set(fileTools.map((t) => t.endpoint)).size).toBe(fileTools.length);
    for (const tool of fileTools) {
      expect(tool.endpoint).toMatch(/^\/api\/[\w/]+$/);
      const values = defaultValues(tool);
      for (const spec of tool.options) {
        if (spec.kind === 'number') expect(values[spec.name]).toBeGreaterThanOrEqual(spec.min);
        if (spec.kind === 'number') expect(values[spec.name]).toBeLessThanOrEqual(spec.max);
        if (spec.kind === 'select') expect(spec.choices.map((c) => c.value)).toContain(values[spec.name]);
      }
      expect(new Set(tool.options.map((o) => o.name)).size).toBe(tool.options.length);
      expect(tool.accepts.extensions.length, tool.id).toBeGreaterThan(0);
    }
  });

  test('tools warmed up on open have an engine with a prepare step', async () => {
    for (const tool of fileTools.filter((t) => t.prepareOnOpen)) {
      expect(typeof (await loadEngine(tool.id)).prepare, tool.id).toBe('function');
    }
  });

  test('every tool has a name, a description and the copy of its detail page', () => {
    for (const tool of tools) {
      expect(tool.name, tool.id).toBeTruthy();
      expect(tool.description, tool.id).toBeTruthy();
      expect(tool.content.overview, tool.id).toBeTruthy();
      for (const part of [tool.content.features, tool.content.usage, tool.content.perfectFor]) {
        expect(part.length, tool.id).toBeGreaterThan(0);
      }
    }
  });

  test('an entry whose id is not its file name is refused, naming the file', () => {
    const [path, module] = Object.entries(
      import.meta.glob<ToolModules[string]>('../../src/catalogue/tools/*.ts', { eager: true }),
    )[0];
    expect(() => buildCatalogue({ [path.replace(/[^/]+\.ts$/, 'renamed.ts')]: module })).toThrow(
      /renamed\.ts must export `tool` with id 'renamed'/,
    );
  });
});

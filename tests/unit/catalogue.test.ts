import { describe, expect, test } from 'vitest';
import { tools, fileTools, utilityTools, defaultValues } from '../../src/catalogue/index.ts';
import { TOOL_IDS } from '../../src/catalogue/types.ts';
import { headerColumns, popularToolIds, sideMenuSections, toolsPageGroups } from '../../src/catalogue/sections.ts';
import { engineIds, loadEngine } from '../../workers/engine/registry.ts';
import { formIds } from '../../src/tool-ui/forms/registry.ts';

describe('catalogue', () => {
  test('holds the 25 tools of spec §3: 17 pdf and 8 utility, ids unique and in spec order', () => {
    expect(tools.map((t) => t.id)).toEqual([...TOOL_IDS]);
    expect(new Set(tools.map((t) => t.id)).size).toBe(25);
    expect(tools.filter((t) => t.category === 'pdf')).toHaveLength(17);
    expect(tools.filter((t) => t.category === 'utility')).toHaveLength(8);
  });

  test('every list of tools holds each tool exactly once', () => {
    for (const sections of [headerColumns, toolsPageGroups, sideMenuSections]) {
      const ids = sections.flatMap((s) => s.ids);
      expect([...ids].sort()).toEqual([...TOOL_IDS].sort());
    }
    expect(popularToolIds).toEqual(['merge-pdf', 'split-pdf', 'pdf-to-word', 'image-compressor']);
  });

  test('only merge-pdf and jpg-to-pdf take several files, under the field "files"', () => {
    expect(fileTools.filter((t) => t.multiple).map((t) => t.id)).toEqual(['merge-pdf', 'jpg-to-pdf']);
    for (const tool of fileTools) expect(tool.fileField).toBe(tool.multiple ? 'files' : 'file');
  });

  test('endpoints are unique /api paths and option defaults are valid', () => {
    expect(new Set(fileTools.map((t) => t.endpoint)).size).toBe(fileTools.length);
    for (const tool of fileTools) {
      const values = defaultValues(tool);
      for (const spec of tool.options) {
        if (spec.kind === 'number') expect(values[spec.name]).toBeGreaterThanOrEqual(spec.min);
        if (spec.kind === 'number') expect(values[spec.name]).toBeLessThanOrEqual(spec.max);
        if (spec.kind === 'select') expect(spec.choices.map((c) => c.value)).toContain(values[spec.name]);
      }
      expect(new Set(tool.options.map((o) => o.name)).size).toBe(tool.options.length);
    }
    expect(utilityTools).toHaveLength(7);
  });

  test('engineReady matches the engines that exist in workers/engine/tools/', () => {
    const ready = fileTools.filter((t) => t.engineReady).map((t) => t.id).sort();
    expect(engineIds().sort()).toEqual(ready);
  });

  test('tools warmed up on open have an engine with a prepare step', async () => {
    const warmed = fileTools.filter((t) => t.prepareOnOpen);
    expect(warmed.map((t) => t.id)).toEqual(['word-to-pdf', 'ppt-to-pdf', 'excel-to-pdf']);
    for (const tool of warmed) expect(typeof (await loadEngine(tool.id)).prepare, tool.id).toBe('function');
  });

  test('formReady matches the utility forms that exist in src/tool-ui/forms/', () => {
    const ready = utilityTools.filter((t) => t.formReady).map((t) => t.id).sort();
    const utilityIds = new Set(utilityTools.map((t) => t.id as string));
    expect(formIds().filter((id) => utilityIds.has(id)).sort()).toEqual(ready);
  });

  test('every tool has a name, a description and an overview', () => {
    for (const tool of tools) {
      expect(tool.name).toBeTruthy();
      expect(tool.description).toBeTruthy();
      expect(tool.content.overview).toBeTruthy();
    }
  });
});

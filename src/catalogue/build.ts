/**
 * Builds the catalogue from the tool files: every module of src/catalogue/tools/ exports one entry
 * (`tool`), and its file name is its id. The tools, the UI's lists and the home page's picks all come
 * from the entries themselves, so adding a tool means adding its file — no list to edit elsewhere.
 */
import { SECTION_TITLES, type FileToolEntry, type ToolEntry, type ToolList, type UtilityToolEntry } from './types.ts';

/** One module of src/catalogue/tools/, keyed by its path as import.meta.glob gives it ('./tools/<id>.ts'). */
export type ToolModules = Record<string, { tool: ToolEntry }>;

/** A titled section of one of the UI's lists, its tools in the order shown. */
export interface ToolSection {
  title: string;
  tools: readonly ToolEntry[];
}

export interface Catalogue {
  /** Every tool, in catalogue order. */
  tools: readonly ToolEntry[];
  fileTools: readonly FileToolEntry[];
  utilityTools: readonly UtilityToolEntry[];
  /** Each list of the UI as its sections (a section no tool names is left out). */
  sections: Readonly<Record<ToolList, readonly ToolSection[]>>;
  /** The home page's Popular Tools cards and its hero tile wall. */
  popularTools: readonly ToolEntry[];
  heroTiles: readonly ToolEntry[];
  /** The entry for an id, or undefined for anything that is not a catalogue id (e.g. a bad URL). */
  findTool: (id: string | undefined) => ToolEntry | undefined;
  getTool: (id: string) => ToolEntry;
}

const idOfPath = (path: string) => path.replace(/^.*\//, '').replace(/\.ts$/, '');

function byPlace(place: (tool: ToolEntry) => number | undefined) {
  return (a: ToolEntry, b: ToolEntry) => (place(a) ?? a.order) - (place(b) ?? b.order) || a.id.localeCompare(b.id);
}

export function buildCatalogue(modules: ToolModules): Catalogue {
  const tools = Object.entries(modules).map(([path, module]) => {
    if (module.tool?.id !== idOfPath(path)) {
      throw new Error(`${path} must export \`tool\` with id '${idOfPath(path)}' (found '${module.tool?.id}')`);
    }
    return module.tool;
  });
  tools.sort(byPlace(() => undefined));

  const sectionsOf = (list: ToolList): ToolSection[] =>
    SECTION_TITLES[list]
      .map((title) => ({
        title,
        tools: tools.filter((t) => t.groups[list] === title).sort(byPlace((t) => t.listOrder?.[list])),
      }))
      .filter((section) => section.tools.length > 0);
  const picked = (key: 'popular' | 'heroTile') =>
    tools.filter((t) => t.home?.[key] !== undefined).sort(byPlace((t) => t.home?.[key]));

  const byId = new Map<string, ToolEntry>(tools.map((tool) => [tool.id, tool]));
  return {
    tools,
    fileTools: tools.filter((t): t is FileToolEntry => t.kind === 'file'),
    utilityTools: tools.filter((t): t is UtilityToolEntry => t.kind === 'utility'),
    sections: { dropdown: sectionsOf('dropdown'), toolsPage: sectionsOf('toolsPage'), menu: sectionsOf('menu') },
    popularTools: picked('popular'),
    heroTiles: picked('heroTile'),
    findTool: (id) => (id === undefined ? undefined : byId.get(id)),
    getTool: (id) => {
      const tool = byId.get(id);
      if (!tool) throw new Error(`Unknown tool id: ${id}`);
      return tool;
    },
  };
}

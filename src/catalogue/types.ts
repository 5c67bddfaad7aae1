/**
 * The shape of one catalogue entry. Every list, route, menu, form, file filter and /api handler in
 * Folio is read from entries of this shape (src/catalogue/tools/<id>.ts), so a tool is described once.
 */

/** A catalogue id: the file name of src/catalogue/tools/<id>.ts, also the tool's URL (/tools/<id>). */
export type ToolId = string;

/**
 * The UI's lists of tools, each with its sections in the order shown. An entry names its section in
 * every list (`groups`); src/catalogue/build.ts fills the sections from the entries.
 */
export const SECTION_TITLES = {
  /** The header's Tools dropdown: one column per section. */
  dropdown: ['Convert PDF', 'Edit & Organize', 'Secure PDF', 'Utility Tools'],
  /** The /tools page ("Explore All Tools"). */
  toolsPage: ['From PDF', 'To PDF', 'Organize & Edit PDF', 'Secure PDF', 'Utility Tools'],
  /** The slide-in Tool Menu. */
  menu: ['PDF Tools', 'Utility Tools'],
} as const;

export type ToolList = keyof typeof SECTION_TITLES;
export type ToolGroups = { readonly [L in ToolList]: (typeof SECTION_TITLES)[L][number] };

/** Names of the icons drawn by src/app/icon.tsx. */
export type IconName =
  | 'merge'
  | 'split'
  | 'compress'
  | 'word'
  | 'powerpoint'
  | 'excel'
  | 'image'
  | 'organize'
  | 'edit'
  | 'rotate'
  | 'unlock'
  | 'lock'
  | 'watermark'
  | 'image-compress'
  | 'key'
  | 'text'
  | 'calendar'
  | 'scale'
  | 'palette'
  | 'ruler'
  | 'braces';

/** One choice of a select option. */
export interface Choice {
  value: string;
  label: string;
}

interface OptionBase {
  /** The multipart field name sent to /api (pageOrder, password, text, position, angle…). */
  name: string;
  label: string;
  help?: string;
  /** Show this option only when another option has one of these values. */
  showWhen?: { option: string; equals: readonly string[] };
}

/** A tool option; the modal's generic form and the /api handler both read these. */
export type OptionSpec =
  | (OptionBase & { kind: 'select'; default: string; choices: readonly Choice[] })
  | (OptionBase & { kind: 'number'; default: number; min: number; max: number; step: number; unit?: string })
  | (OptionBase & { kind: 'text'; default: string; placeholder?: string; maxLength?: number })
  /** With confirm, the form asks twice; the second value is sent as `confirm<Name>` (confirmPassword). */
  | (OptionBase & {
      kind: 'password';
      default: '';
      confirm?: boolean;
      autocomplete: 'new-password' | 'current-password';
    })
  | (OptionBase & { kind: 'checkbox'; default: boolean })
  | (OptionBase & { kind: 'pages'; default: string; placeholder?: string })
  | (OptionBase & { kind: 'color'; default: string });

export type OptionValue = string | number | boolean;
export type OptionValues = Record<string, OptionValue>;

/** The static copy of a tool's detail page (/tools/<id>). */
export interface ToolContent {
  overview: string;
  features: readonly string[];
  usage: readonly string[];
  perfectFor: readonly string[];
  privacy: string;
  whyUse: string;
}

/** What a file tool accepts: extensions for the picker and MIME types for drag-and-drop checks. */
export interface FileAccept {
  extensions: readonly string[];
  mimeTypes: readonly string[];
  /** Human phrase for messages: "PDF files", "JPEG or PNG images". */
  label: string;
}

interface ToolEntryBase {
  id: ToolId;
  name: string;
  description: string;
  icon: IconName;
  /** Place in the catalogue (the id order of the /api contract); every list shows its tools in this order. */
  order: number;
  /** Its section in each list of the UI. */
  groups: ToolGroups;
  /** A place of its own in a list whose order differs from `order` (the dropdown's Utility Tools column). */
  listOrder?: Partial<Record<ToolList, number>>;
  /** On the home page: its place among the Popular Tools cards and/or in the hero's tile wall. */
  home?: { popular?: number; heroTile?: number };
  content: ToolContent;
}

/** A tool that takes files and answers through an /api endpoint (all 17 PDF tools and the image compressor). */
export interface FileToolEntry extends ToolEntryBase {
  kind: 'file';
  endpoint: `/api/${string}`;
  /** Multipart field of the input files: 'files' for merge-pdf and jpg-to-pdf, else 'file'. */
  fileField: 'file' | 'files';
  multiple: boolean;
  accepts: FileAccept;
  /** Used when the response carries no Content-Disposition (e.g. merge-pdf-result.pdf). */
  defaultFilename: string;
  options: readonly OptionSpec[];
  /** Cross-field checks with the messages the user reads; null when the values are fine. */
  validate?: (values: OptionValues) => string | null;
  /**
   * In the browser, a job that reports no progress for this long is stopped (its worker replaced)
   * and the user told (TimedOut): for engines that work through documents of unbounded complexity.
   */
  stallSeconds?: number;
  /**
   * Warm the engine up in a worker as soon as the tool's window opens (its `prepare` export: fonts,
   * WASM), for engines whose first run would otherwise wait on large downloads.
   */
  prepareOnOpen?: boolean;
}

/**
 * A tool computed in the page from typed input (password generator, calculators…); its form:
 * src/tool-ui/forms/<id>.tsx.
 */
export interface UtilityToolEntry extends ToolEntryBase {
  kind: 'utility';
}

export type ToolEntry = FileToolEntry | UtilityToolEntry;

/**
 * The shape of one catalogue entry. Every list, route, menu, form, file filter and /api handler in
 * Folio is read from entries of this shape (src/catalogue/tools/<id>.ts), so a tool is described once.
 */

export const TOOL_IDS = [
  'merge-pdf', 'split-pdf', 'compress-pdf', 'pdf-to-word', 'word-to-pdf', 'pdf-to-ppt', 'ppt-to-pdf',
  'pdf-to-excel', 'excel-to-pdf', 'pdf-to-jpg', 'jpg-to-pdf', 'organize-pdf', 'edit-pdf', 'rotate-pdf',
  'unlock-pdf', 'protect-pdf', 'add-watermark',
  'image-compressor', 'password-generator', 'word-counter', 'age-calculator', 'bmi-calculator',
  'color-picker', 'unit-converter', 'json-formatter',
] as const;

export type ToolId = (typeof TOOL_IDS)[number];
export type ToolCategory = 'pdf' | 'utility';

/** Names of the icons drawn by src/app/icon.tsx. */
export type IconName =
  | 'merge' | 'split' | 'compress' | 'word' | 'powerpoint' | 'excel' | 'image' | 'organize' | 'edit'
  | 'rotate' | 'unlock' | 'lock' | 'watermark' | 'image-compress' | 'key' | 'text' | 'calendar'
  | 'scale' | 'palette' | 'ruler' | 'braces';

/** One choice of a select option. */
export interface Choice { value: string; label: string }

interface OptionBase {
  /** The multipart field name sent to /api (spec §7 names: pageOrder, password, text, position, angle…). */
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
  | (OptionBase & { kind: 'password'; default: ''; confirm?: boolean; autocomplete: 'new-password' | 'current-password' })
  | (OptionBase & { kind: 'checkbox'; default: boolean })
  | (OptionBase & { kind: 'pages'; default: string; placeholder?: string })
  | (OptionBase & { kind: 'color'; default: string });

export type OptionValue = string | number | boolean;
export type OptionValues = Record<string, OptionValue>;

/** The static copy of a tool's detail page (spec §3 "Tool info content"). */
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
  category: ToolCategory;
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
  /** Used when the response carries no Content-Disposition (spec §7 defaults). */
  defaultFilename: string;
  options: readonly OptionSpec[];
  /** Cross-field checks with the exact messages of spec §5/§8; null when the values are fine. */
  validate?: (values: OptionValues) => string | null;
  /** True once workers/engine/tools/<id>.ts exists; a catalogue test keeps the two in step. */
  engineReady: boolean;
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

/** A tool computed in the page from typed input (the password generator, calculators…). */
export interface UtilityToolEntry extends ToolEntryBase {
  kind: 'utility';
  /** True once src/tool-ui/forms/<id>.tsx exists; a catalogue test keeps the two in step. */
  formReady: boolean;
}

export type ToolEntry = FileToolEntry | UtilityToolEntry;

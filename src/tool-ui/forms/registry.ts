/**
 * Per-tool forms, found by file name: src/tool-ui/forms/<tool-id>.tsx, each a lazy chunk whose
 * default export is the form. File tools without one use the generic options form built from the
 * catalogue; utilities must have one (tests/unit/catalogue.test.ts checks).
 *
 * - A file tool's form (FileToolPanelProps) renders the tool's options and may replace the
 *   generic option fields (page pickers, thumbnails, previews). The frame around it (picker,
 *   file list, Process Files, progress, error, result) is file-tool-form.tsx's.
 * - A utility's form (UtilityFormProps) is the whole body of the modal.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { FileToolEntry, OptionValue, OptionValues, UtilityToolEntry } from '../../catalogue/types.ts';

export interface FileToolPanelProps {
  tool: FileToolEntry;
  files: readonly File[];
  values: OptionValues;
  setValue: (name: string, value: OptionValue) => void;
  /** Replaces the file list (e.g. after reordering pages or files inside the panel). */
  setFiles: (files: File[]) => void;
  disabled: boolean;
  /** Page count of each PDF already opened by the frame's check on pick (pdf-checks.ts). */
  pageCounts?: ReadonlyMap<File, number>;
  /** Runs the tool now, as the frame's action does (e.g. Edit PDF's Done saves and downloads). */
  runTool?: () => void;
  /** The password the user entered for an encrypted input (after PasswordRequired), if any. */
  inputPassword?: string;
}

export interface UtilityFormProps {
  tool: UtilityToolEntry;
}

type AnyForm = ComponentType<FileToolPanelProps> | ComponentType<UtilityFormProps>;
const modules = import.meta.glob<{ default: AnyForm }>('./*.tsx');

const forms = new Map<string, LazyExoticComponent<AnyForm>>();
for (const [path, load] of Object.entries(modules)) {
  forms.set(path.replace('./', '').replace(/\.tsx$/, ''), lazy(load));
}

export function formIds(): string[] {
  return [...forms.keys()];
}

export function fileToolPanel(toolId: string): LazyExoticComponent<ComponentType<FileToolPanelProps>> | undefined {
  return forms.get(toolId) as LazyExoticComponent<ComponentType<FileToolPanelProps>> | undefined;
}

export function utilityForm(toolId: string): LazyExoticComponent<ComponentType<UtilityFormProps>> | undefined {
  return forms.get(toolId) as LazyExoticComponent<ComponentType<UtilityFormProps>> | undefined;
}

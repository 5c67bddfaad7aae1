/**
 * Edit PDF's panel: "Open the editor" (the full-screen page editor, src/tool-ui/editor/) and the
 * contract's quick form — the same text on every chosen page at the center, top or bottom. The edits
 * made in the editor travel as the `operations` field (JSON); both can be used together.
 */
import { lazy, Suspense, useEffect, useReducer, useRef, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import './edit-pdf.css';
import {
  DEFAULT_STYLE,
  INITIAL_STATE,
  countEdits,
  editorReducer,
  operationsJson,
  type Style,
} from '../editor/editor-state.ts';

const PageEditor = lazy(() => import('../editor/editor.tsx').then((m) => ({ default: m.PageEditor })));

export default function EditPdfPanel({ tool, files, values, setValue, disabled, runTool }: FileToolPanelProps) {
  const [state, dispatch] = useReducer(editorReducer, INITIAL_STATE);
  const [style, setStyle] = useState<Style>(DEFAULT_STYLE);
  const [open, setOpen] = useState(false);
  const file = files[0];
  const lastFile = useRef<File | undefined>(file);

  // A different file starts from a clean page.
  useEffect(() => {
    if (lastFile.current !== file) {
      lastFile.current = file;
      dispatch({ type: 'reset', objects: [] });
      setOpen(false);
    }
  }, [file]);

  useEffect(() => {
    setValue('operations', operationsJson(state.objects));
  }, [state.objects, setValue]);

  const count = countEdits(state.objects);
  const kinds = [...new Set(state.objects.map((o) => o.type))];
  // Done saves at once; the operations field is set by the effect above, so run after it has landed.
  const [saveRequested, setSaveRequested] = useState(false);
  useEffect(() => {
    if (!saveRequested) return;
    setSaveRequested(false);
    runTool?.();
  }, [saveRequested, runTool, values.operations]);

  return (
    <div className="option-fields edit-pdf-panel">
      <div className="option-field">
        <button type="button" className="editor-open" disabled={!file || disabled} onClick={() => setOpen(true)}>
          {count > 0 ? 'Continue editing' : 'Open the page editor'}
        </button>
        <small>
          {!file
            ? 'Choose a PDF to add text, images, signatures, drawings, shapes, highlights, whiteout and ' +
              'redactions on its pages.'
            : count > 0
              ? `${count} edit${count === 1 ? '' : 's'} ready (${kinds.join(', ')}). Press Process Files to save ` +
                `the edited PDF.`
              : 'Add text, images, drawings, shapes, highlights, whiteout and redactions, or change existing text.'}
        </small>
      </div>
      {/* Folded away: the quick form is a second way to edit, not a step before saving. */}
      <details className="edit-pdf-quick" open={String(values.text ?? '') !== '' || undefined}>
        <summary>Or add the same text to every page</summary>
        <OptionFields
          tool={tool}
          values={values}
          setValue={setValue}
          disabled={disabled}
          only={['text', 'position', 'pages', 'fontSize', 'color']}
        />
      </details>
      <OptionFields
        tool={tool}
        values={values}
        setValue={setValue}
        disabled={disabled}
        only={['annotations', 'removeScripts']}
      />
      {open && file && (
        <Suspense fallback={<p aria-busy="true">Opening the editor…</p>}>
          <PageEditor
            file={file}
            state={state}
            dispatch={dispatch}
            style={style}
            setStyle={setStyle}
            onClose={() => setOpen(false)}
            onDone={() => {
              setOpen(false);
              setSaveRequested(true);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

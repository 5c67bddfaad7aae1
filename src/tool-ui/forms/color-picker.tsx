/**
 * Colour picker: the browser's colour picker, a hex box (#RRGGBB or #RGB) and, where the browser
 * has it (Chromium desktop), the EyeDropper to pick any pixel on screen. Shows HEX, RGB, HSL, HSV
 * and CMYK, each with a copy button ('Copied' for 2 s), and the WCAG contrast of the colour as
 * text on white and on black. Logic: src/utilities/color.ts.
 */
import { useId, useState, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import {
  BLACK,
  WHITE,
  colorNotations,
  contrastVerdict,
  parseHex,
  toHex,
  type ContrastVerdict,
  type Rgb,
} from '../../utilities/color.ts';
import { CalculateButton, CopyButton, ErrorLine, useCopy } from './utility/kit.tsx';

interface EyeDropperApi {
  open(): Promise<{ sRGBHex: string }>;
}
declare global {
  interface Window {
    EyeDropper?: new () => EyeDropperApi;
  }
}

const START: Rgb = { r: 0x1f, g: 0x4f, b: 0xd1 };
const HEX_MESSAGE = 'Enter a colour as #RRGGBB or #RGB, for example #1F4FD1';

function Verdict({ verdict, on }: { verdict: ContrastVerdict; on: 'white' | 'black' }) {
  const badge = (pass: boolean, text: string) => (
    <span className={`u-badge ${pass ? 'pass' : 'fail'}`}>
      {pass ? '✓' : '✗'} {text}
    </span>
  );
  return (
    <div className="u-contrast-body">
      <span className="ratio" data-testid={`contrast-${on}`}>
        {verdict.ratioText} : 1
      </span>
      <div className="u-badges">
        {badge(verdict.aaNormal, 'AA')}
        {badge(verdict.aaaNormal, 'AAA')}
        {badge(verdict.aaLarge, 'AA large')}
        {badge(verdict.aaaLarge, 'AAA large')}
      </div>
    </div>
  );
}

export default function ColorPickerForm(_props: UtilityFormProps) {
  const id = useId();
  const [color, setColor] = useState<Rgb>(START);
  const [hexText, setHexText] = useState(toHex(START));
  const [error, setError] = useState<string | null>(null);
  const [dropperNote, setDropperNote] = useState<string | null>(null);
  const copyState = useCopy();
  const notations = colorNotations(color);
  const onWhite = contrastVerdict(color, WHITE);
  const onBlack = contrastVerdict(color, BLACK);
  const hasEyeDropper = typeof window !== 'undefined' && typeof window.EyeDropper === 'function';

  function choose(next: Rgb) {
    setColor(next);
    setHexText(toHex(next));
    setError(null);
  }

  function onHexText(text: string) {
    setHexText(text);
    // Apply at once when complete and valid; a half-typed value waits (and Calculate explains).
    const parsed = parseHex(text);
    if (parsed) {
      setColor(parsed);
      setError(null);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseHex(hexText);
    if (!parsed) {
      setError(hexText.trim() === '' ? 'A colour is required' : HEX_MESSAGE);
      return;
    }
    choose(parsed);
  }

  async function pickFromScreen() {
    if (!window.EyeDropper) return;
    try {
      const { sRGBHex } = await new window.EyeDropper().open();
      const parsed = parseHex(sRGBHex);
      if (parsed) choose(parsed);
      setDropperNote(null);
    } catch {
      setDropperNote('Picking was cancelled.');
    }
  }

  const rows: [string, string][] = [
    ['HEX', notations.hex],
    ['RGB', notations.rgb],
    ['HSL', notations.hsl],
    ['HSV', notations.hsv],
    ['CMYK', notations.cmyk],
  ];

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div className="u-color-top">
        <div className="u-swatch" style={{ background: notations.hex }}>
          <input
            type="color"
            aria-label="Colour picker"
            value={notations.hex.toLowerCase()}
            onChange={(e) => {
              const parsed = parseHex(e.target.value);
              if (parsed) choose(parsed);
            }}
          />
          <span>Click to pick</span>
        </div>
        <div className="u-form" style={{ gap: 10 }}>
          <div className="u-field">
            <label htmlFor={`${id}-hex`}>Hex colour</label>
            <input
              id={`${id}-hex`}
              name="hex"
              className="u-mono"
              value={hexText}
              spellCheck={false}
              autoComplete="off"
              placeholder="#1F4FD1"
              aria-invalid={error ? true : undefined}
              onChange={(e) => onHexText(e.target.value)}
            />
          </div>
          <ErrorLine message={error} />
          <div className="u-actions">
            <CalculateButton>Pick</CalculateButton>
            {hasEyeDropper && (
              <button type="button" onClick={() => void pickFromScreen()}>
                Pick from screen
              </button>
            )}
          </div>
          {dropperNote && <p className="u-hint">{dropperNote}</p>}
        </div>
      </div>

      <section className="u-result" aria-label="Colour codes">
        <dl className="u-notations" style={{ margin: 0 }} data-testid="notations">
          {rows.map(([label, value]) => (
            <div className="u-notation" key={label}>
              <dt>{label}</dt>
              <dd>
                <span>{value}</span>
                <CopyButton text={value} copyKey={label} state={copyState} />
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-label="Contrast" className="u-field">
        <span className="u-label">Contrast (WCAG 2)</span>
        <div className="u-contrast">
          <div className="u-contrast-card">
            <div className="u-contrast-sample" style={{ background: '#fff', color: notations.hex }}>
              Aa Text<small style={{ color: '#4b5563' }}>on white</small>
            </div>
            <Verdict verdict={onWhite} on="white" />
          </div>
          <div className="u-contrast-card">
            <div className="u-contrast-sample" style={{ background: '#000', color: notations.hex }}>
              Aa Text<small style={{ color: '#d1d5db' }}>on black</small>
            </div>
            <Verdict verdict={onBlack} on="black" />
          </div>
        </div>
        <p className="u-hint">
          AA needs 4.5 : 1 for body text and 3 : 1 for large text (24 px, or 18.7 px bold); AAA needs 7 : 1 and 4.5 : 1.
        </p>
      </section>
    </form>
  );
}

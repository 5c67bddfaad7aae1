/**
 * protect-pdf's options: the password that opens the file (twice, with a strength hint, show/hide
 * and a "Generate" link using the password generator's unbiased logic), and on the same screen the
 * permissions (printing, copying, editing, comments and forms, page assembly) with an optional
 * permissions (owner) password. Validation messages are the catalogue's, shown by the
 * frame's error line when Process Files is pressed.
 *
 * Passwords live only in this modal's React state: never logged, never stored, sent only to the
 * in-page API (which hands them to the worker); closing the modal or "Start over" drops them.
 */
import { useId, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { DEFAULT_PASSWORD_OPTIONS, generatePassword, strengthLabel } from '../../utilities/password.ts';
import { newPasswordProblem, passwordStrength } from '../../../shared/encryption-passwords.ts';
import './secure-pdf.css';

/** Generated passwords: 16 characters of all four classes without look-alikes (≈ 100 bits). */
const GENERATED = { ...DEFAULT_PASSWORD_OPTIONS, length: 16, excludeLookAlikes: true };

export default function ProtectPdfPanel({ tool, values, setValue, disabled }: FileToolPanelProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const [copied, setCopied] = useState(false);
  const password = String(values.password ?? '');
  const confirm = String(values.confirmPassword ?? '');
  const strength = passwordStrength(password);
  const label = strength.level === 0 ? strength.label : strengthLabel(strength.bits);
  const tooLong = strength.label === 'Too long' ? newPasswordProblem(password) : undefined;

  function generate() {
    const generated = generatePassword(GENERATED);
    setValue('password', generated);
    setValue('confirmPassword', generated);
    // Shown so that it can be noted down: a generated password nobody saw would lock the file for good.
    setVisible(true);
    setCopied(false);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(password);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }

  const type = visible ? 'text' : 'password';
  return (
    <div className="option-fields secure-pdf">
      <div className="option-field">
        <div className="secure-label-line">
          <label htmlFor={`${id}-password`}>Password</label>
          <button type="button" className="link-button" onClick={generate} disabled={disabled}>
            Generate
          </button>
        </div>
        <div className="secure-input-line">
          <input
            id={`${id}-password`}
            name="password"
            type={type}
            autoComplete="new-password"
            spellCheck={false}
            value={password}
            disabled={disabled}
            aria-describedby={`${id}-strength ${id}-help`}
            onChange={(e) => setValue('password', e.target.value)}
          />
          <button
            type="button"
            className="small"
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
            disabled={disabled}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
          {visible && password && (
            <button type="button" className="small" onClick={() => void copy()} disabled={disabled}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          )}
        </div>
        {password !== '' && (
          <div id={`${id}-strength`} className={`strength strength-${strength.level}`}>
            <meter min={0} max={4} low={2} high={3} optimum={4} value={strength.level} aria-label="Password strength" />
            <span>
              Strength: {label}
              {strength.level > 0 ? ` (about ${strength.bits} bits)` : ''}
            </span>
            {tooLong && <small className="option-help">{tooLong}</small>}
          </div>
        )}
        <small id={`${id}-help`} className="option-help">
          Needed to open the file. At least 4 characters and at most 127 bytes (127 Latin letters, fewer accented or
          non-Latin ones); a long passphrase is best. Folio cannot recover a forgotten password.
        </small>
      </div>

      <div className="option-field">
        <label htmlFor={`${id}-confirm`}>Confirm password</label>
        <input
          id={`${id}-confirm`}
          name="confirmPassword"
          type={type}
          autoComplete="new-password"
          spellCheck={false}
          value={confirm}
          disabled={disabled}
          onChange={(e) => setValue('confirmPassword', e.target.value)}
        />
        {confirm !== '' && confirm === password && <small className="option-help secure-ok">✓ Passwords match</small>}
      </div>

      <fieldset className="secure-permissions">
        <legend>Permissions</legend>
        <p className="option-help">
          What people who open the file with the password may do. Acrobat and most viewers honour these; some programs
          ignore them.
        </p>
        <OptionFields
          tool={tool}
          values={values}
          setValue={setValue}
          disabled={disabled}
          only={['print', 'allowCopy', 'allowEdit', 'allowAnnotate', 'allowAssemble', 'removeScripts']}
        />
        <div className="option-field option-checkbox">
          <label>
            <input type="checkbox" checked disabled aria-describedby={`${id}-a11y`} /> Reading by screen readers and
            other accessibility tools
          </label>
          <small id={`${id}-a11y`} className="option-help">
            Always allowed: PDF 2.0 (AES-256) does not let a file block accessibility tools.
          </small>
        </div>
        <div className="option-field">
          <label htmlFor={`${id}-owner`}>Permissions password (optional)</label>
          <input
            id={`${id}-owner`}
            name="ownerPassword"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            value={String(values.ownerPassword ?? '')}
            disabled={disabled}
            aria-describedby={`${id}-owner-help`}
            onChange={(e) => setValue('ownerPassword', e.target.value)}
          />
          <small id={`${id}-owner-help`} className="option-help">
            Lets you lift the restrictions later. Leave empty to use a random one nobody knows. Must differ from the
            password above.
          </small>
        </div>
      </fieldset>
      <p className="option-help">
        Encrypted with AES-256 (PDF 2.0) on this device: the file and the password never leave it.
      </p>
    </div>
  );
}

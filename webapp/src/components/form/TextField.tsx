import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from '../icons/Icons';
import './form.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  hint?: string;
  /** Shown inside the field on the right (an SMS button, a copy button). */
  trailing?: ReactNode;
  /** A password field with a show/hide button. */
  revealable?: boolean;
}

export function TextField({ label, value, onChange, invalid = false, hint, trailing, revealable = false, type, ...rest }: TextFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const [revealed, setRevealed] = useState(false);
  const inputType = revealable ? (revealed ? 'text' : 'password') : type;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control" data-invalid={invalid || undefined}>
        <input
          {...rest}
          id={id}
          className="field__input"
          type={inputType}
          value={value}
          aria-invalid={invalid}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
        {revealable ? (
          <button
            type="button"
            className="icon-button field__icon-button"
            // Not "show password": a label containing the field's own name would make the
            // field ambiguous to anyone finding it by its label.
            aria-label={revealed ? t('kit.hidePassword') : t('kit.showPassword')}
            aria-controls={id}
            aria-pressed={revealed}
            onClick={() => {
              setRevealed((r) => !r);
            }}
          >
            {revealed ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        ) : null}
        {trailing}
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

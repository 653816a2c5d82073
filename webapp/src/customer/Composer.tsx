import { useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_MESSAGE_MAX } from '../api/customer';

/** Characters as the server counts them (Unicode code points, not UTF-16 units). */
function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // A high surrogate and its low surrogate are one character.
    if (code < 0xdc00 || code > 0xdfff) count += 1;
  }
  return count;
}

interface ComposerProps {
  initial?: string;
  disabled?: boolean;
  onSend: (content: string) => void;
  /** Offered to signed-in users (the server keeps pictures per account). */
  onPickImage?: (file: File) => void;
}

/** The message field: Enter sends (Shift+Enter for a new line), focus stays in it after sending. */
export function Composer({ initial = '', disabled = false, onSend, onPickImage }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const field = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const trimmed = text.trim();
  const tooLong = characterCount(trimmed) > CUSTOMER_MESSAGE_MAX;

  const send = (): void => {
    if (!trimmed || tooLong || disabled) return;
    onSend(trimmed);
    setText('');
    field.current?.focus();
  };
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      {onPickImage ? (
        <>
          <button
            type="button"
            className="composer__attach"
            disabled={disabled}
            aria-label={t('customer.sendImage')}
            onClick={() => picker.current?.click()}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
              <rect x="3" y="5" width="18" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
              <circle cx="9" cy="10" r="1.8" fill="currentColor" />
              <path d="m4 17 5-5 4 4 3-3 4 4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
            </svg>
          </button>
          <input
            ref={picker}
            className="visually-hidden"
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onPickImage(file);
            }}
          />
        </>
      ) : null}
      <label className="composer__field">
        <span className="visually-hidden">{t('customer.message')}</span>
        <textarea
          ref={field}
          className="composer__input"
          name="message"
          rows={1}
          placeholder={t('customer.placeholder')}
          value={text}
          aria-invalid={tooLong}
          onChange={(event) => {
            setText(event.target.value);
          }}
          onKeyDown={onKeyDown}
        />
      </label>
      <button type="submit" className="composer__send" disabled={!trimmed || tooLong || disabled}>
        {t('customer.send')}
      </button>
      {tooLong ? (
        <p className="composer__error" role="alert">
          {t('customer.tooLong', { max: CUSTOMER_MESSAGE_MAX })}
        </p>
      ) : null}
    </form>
  );
}

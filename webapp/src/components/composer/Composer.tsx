import { useRef, type KeyboardEvent, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import styles from './Composer.module.css';

interface ComposerProps {
  text: string;
  onTextChange: (text: string) => void;
  /** Gets the trimmed text; the box is emptied and keeps the focus. */
  onSend: (text: string) => void;
  /** The field's accessible name and placeholder. */
  label: string;
  placeholder: string;
  sendLabel: string;
  /** `compact` (chat: squared, send shown only with text) or `rounded` (customer service). */
  look: 'compact' | 'rounded';
  /** False blocks sending even with text (too long, not connected). */
  canSend?: boolean;
  disabled?: boolean;
  /** The field itself takes no typing either (a muted member); the placeholder says why. */
  locked?: boolean;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** Buttons before the field. */
  before?: ReactNode;
  /** Buttons between the field and send. */
  after?: ReactNode;
  /** Shown instead of the field (chat's hold-to-talk). */
  replaceField?: ReactNode;
  /** Shown instead of send while the box is empty (chat's attachment button). */
  idle?: ReactNode;
  /** Above the row (the quoted message) and below it (panels). */
  above?: ReactNode;
  below?: ReactNode;
  /** A problem with the text, announced. */
  error?: ReactNode;
  onFocus?: () => void;
}

/** The message box of a conversation: Enter sends (Shift+Enter is a new line), focus stays in it after sending. */
export function Composer(props: ComposerProps) {
  const { text, onTextChange, onSend, label, placeholder, sendLabel, look, canSend = true, disabled = false } = props;
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const field = props.inputRef ?? ownRef;
  const trimmed = text.trim();
  const sendable = Boolean(trimmed) && canSend && !disabled && !props.locked;

  const send = (): void => {
    if (!sendable) return;
    onSend(trimmed);
    onTextChange('');
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

  const textarea = (
    <textarea
      ref={field}
      className={styles.input}
      name="message"
      rows={1}
      value={text}
      placeholder={placeholder}
      aria-label={label}
      aria-invalid={props.error ? true : undefined}
      enterKeyHint="send"
      disabled={props.locked}
      onChange={(event) => {
        onTextChange(event.target.value);
      }}
      onKeyDown={onKeyDown}
      onFocus={props.onFocus}
    />
  );
  const showIdle = props.idle !== undefined && (!trimmed || props.replaceField !== undefined);
  return (
    <form className={`${styles.composer} ${styles[look]}`} onSubmit={onSubmit}>
      {props.above}
      <div className={styles.row}>
        {props.before}
        {props.replaceField ?? (look === 'rounded' ? <div className={styles.field}>{textarea}</div> : textarea)}
        {props.after}
        {showIdle ? (
          props.idle
        ) : (
          <button
            type="submit"
            className={styles.send}
            disabled={!sendable}
            onPointerDown={(event) => {
              // Keep the keyboard open: the field must not lose focus.
              event.preventDefault();
            }}
          >
            {sendLabel}
          </button>
        )}
      </div>
      {props.below}
      {props.error ? (
        <p className={styles.error} role="alert">
          {props.error}
        </p>
      ) : null}
    </form>
  );
}

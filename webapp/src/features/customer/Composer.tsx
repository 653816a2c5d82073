import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_MESSAGE_MAX } from '../../api/customer';
import { Composer as SharedComposer } from '../../components/composer/Composer';

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

/** The shared message box with customer service's extras: a picture button and the length limit. */
export function Composer({ initial = '', disabled = false, onSend, onPickImage }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const picker = useRef<HTMLInputElement>(null);
  const trimmed = text.trim();
  const tooLong = characterCount(trimmed) > CUSTOMER_MESSAGE_MAX;

  return (
    <SharedComposer
      look="rounded"
      text={text}
      onTextChange={setText}
      onSend={onSend}
      label={t('customer.message')}
      placeholder={t('customer.placeholder')}
      sendLabel={t('customer.send')}
      canSend={!tooLong}
      disabled={disabled}
      error={tooLong ? t('customer.tooLong', { max: CUSTOMER_MESSAGE_MAX }) : null}
      before={
        onPickImage ? (
          <>
            <button
              type="button"
              className="customer-attach"
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
        ) : null
      }
    />
  );
}

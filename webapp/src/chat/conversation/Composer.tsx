import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyboardIcon, MicIcon, PlusIcon, SmileIcon } from '../components/Icons';
import type { ChatMessage } from '../data/messages';
import { messageText } from '../data/preview';
import { FacePanel } from './FacePanel';
import { MorePanel } from './MorePanel';
import { VoiceButton } from './VoiceButton';

interface ComposerProps {
  me: string;
  initialDraft: string;
  quote: ChatMessage | null;
  onCancelQuote: () => void;
  onSendText: (text: string) => void;
  onSendFace: (index: number) => void;
  onImage: (file: File) => void;
  onVideo: (file: File) => void;
  onFile: (file: File) => void;
  onVoice: (blob: Blob, seconds: number) => void;
  onLocation: () => void;
  onCard: () => void;
  /** Called (throttled) while typing, for the peer's typing indicator. */
  onTyping: () => void;
  /** Called when leaving with the text still in the box (saved as the draft). */
  onDraft: (text: string) => void;
}

type Panel = 'none' | 'faces' | 'more';

const TYPING_EVERY_MS = 3_000;

/** Text box with send, hold-to-talk, stickers and the attachment panel; keeps focus after sending. */
export function Composer(props: ComposerProps) {
  const { me, initialDraft, quote, onCancelQuote, onSendText, onSendFace, onTyping, onDraft } = props;
  const { t } = useTranslation();
  const [text, setText] = useState(initialDraft);
  const [voice, setVoice] = useState(false);
  const [panel, setPanel] = useState<Panel>('none');
  const input = useRef<HTMLTextAreaElement>(null);
  const lastTyping = useRef(0);
  const latest = useRef({ text, initialDraft, onDraft });

  useEffect(() => {
    latest.current = { text, initialDraft, onDraft };
  });

  // Leaving the conversation keeps what was typed as its draft (shown in the list).
  useEffect(
    () => () => {
      const { text: current, initialDraft: saved, onDraft: save } = latest.current;
      if (current.trim() !== saved.trim()) save(current);
    },
    [],
  );

  useEffect(() => {
    if (quote) input.current?.focus();
  }, [quote]);

  const send = (): void => {
    const value = text.trim();
    if (!value) return;
    onSendText(value);
    setText('');
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const toggle = (next: Panel): void => {
    setPanel((current) => (current === next ? 'none' : next));
    setVoice(false);
  };

  return (
    <div className="composer">
      {quote ? (
        <div className="composer__quote">
          <span className="composer__quote-text">
            {t('chat.composer.replyTo', { name: quote.senderNickname, text: messageText(quote, me, t) })}
          </span>
          <button type="button" className="chat-icon-button" onClick={onCancelQuote} aria-label={t('chat.composer.cancelQuote')}>
            ×
          </button>
        </div>
      ) : null}
      <div className="composer__row">
        <button
          type="button"
          className="chat-icon-button"
          onClick={() => {
            setVoice((v) => !v);
            setPanel('none');
          }}
          aria-label={voice ? t('chat.composer.keyboard') : t('chat.composer.voice')}
        >
          {voice ? <KeyboardIcon /> : <MicIcon />}
        </button>
        {voice ? (
          <VoiceButton onRecorded={props.onVoice} />
        ) : (
          <textarea
            ref={input}
            className="composer__input"
            rows={1}
            value={text}
            placeholder={t('chat.composer.placeholder')}
            aria-label={t('chat.composer.placeholder')}
            enterKeyHint="send"
            onChange={(event) => {
              setText(event.target.value);
              const now = Date.now();
              if (event.target.value && now - lastTyping.current > TYPING_EVERY_MS) {
                lastTyping.current = now;
                onTyping();
              }
            }}
            onKeyDown={onKeyDown}
            onFocus={() => {
              setPanel('none');
            }}
          />
        )}
        <button
          type="button"
          className="chat-icon-button"
          onClick={() => {
            toggle('faces');
          }}
          aria-label={t('chat.composer.faces')}
          aria-expanded={panel === 'faces'}
        >
          <SmileIcon />
        </button>
        {text.trim() && !voice ? (
          <button
            type="button"
            className="chat-small-button composer__send"
            onPointerDown={(event) => {
              // Keep the keyboard open: the textarea must not lose focus.
              event.preventDefault();
            }}
            onClick={send}
          >
            {t('chat.composer.send')}
          </button>
        ) : (
          <button
            type="button"
            className="chat-icon-button"
            onClick={() => {
              toggle('more');
            }}
            aria-label={t('chat.composer.more')}
            aria-expanded={panel === 'more'}
          >
            <PlusIcon />
          </button>
        )}
      </div>
      {panel === 'faces' ? (
        <FacePanel
          onPick={(index) => {
            onSendFace(index);
          }}
        />
      ) : null}
      {panel === 'more' ? (
        <MorePanel
          onImage={(f) => {
            setPanel('none');
            props.onImage(f);
          }}
          onVideo={(f) => {
            setPanel('none');
            props.onVideo(f);
          }}
          onFile={(f) => {
            setPanel('none');
            props.onFile(f);
          }}
          onLocation={props.onLocation}
          onCard={() => {
            setPanel('none');
            props.onCard();
          }}
        />
      ) : null}
    </div>
  );
}

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Composer as SharedComposer } from '../../../components/composer/Composer';
import { KeyboardIcon, MicIcon, PlusIcon, SmileIcon } from '../../../components/icons/Icons';
import type { GroupMemberItem } from '../../../api/socket/types';
import { activeMention, insertMention, mentionsIn, type MentionTarget } from '../data/mentions';
import type { ChatMessage } from '../data/messages';
import { messageText } from '../data/preview';
import { FacePanel } from './FacePanel';
import { MentionPicker } from './MentionPicker';
import { MorePanel } from './MorePanel';
import { VoiceButton } from './VoiceButton';

interface ComposerProps {
  me: string;
  initialDraft: string;
  quote: ChatMessage | null;
  onCancelQuote: () => void;
  /** mentions: the group members the text still names (picked after typing "@"). */
  onSendText: (text: string, mentions: MentionTarget[]) => void;
  /** In a group: the members "@" offers, and whether "@all" is allowed (owner, admin). */
  mention?: { members: readonly GroupMemberItem[]; canMentionAll: boolean };
  /** Why nothing can be sent now (muted, with the time left): the box is disabled and says it. */
  blocked?: string | null;
  onImage: (file: File) => void;
  onVideo: (file: File) => void;
  onFile: (file: File) => void;
  onVoice: (blob: Blob, seconds: number) => void;
  onLocation: () => void;
  onCard: () => void;
  /** Called (throttled) while typing, for the peer's typing indicator. */
  onTyping: () => void;
  /** Saves the text in the box as the draft: once typing pauses, on leaving, and blank on sending. */
  onDraft: (text: string) => void;
}

type Panel = 'none' | 'faces' | 'more';

/** The button that opens one of the panels under the composer, or closes it again. */
function PanelButton({
  name,
  open,
  label,
  onToggle,
  disabled,
  children,
}: {
  name: Panel;
  open: Panel;
  label: string;
  onToggle: (name: Panel) => void;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button chat-icon-button"
      disabled={disabled}
      onClick={() => {
        onToggle(name);
      }}
      aria-label={label}
      aria-expanded={open === name}
    >
      {children}
    </button>
  );
}

const TYPING_EVERY_MS = 3_000;
/** How long typing pauses before the draft is saved. */
export const DRAFT_SAVE_MS = 800;

/** The shared message box with chat's extras: hold-to-talk, stickers, the attachment panel, quoting and drafts. */
export function Composer(props: ComposerProps) {
  const { me, initialDraft, quote, onCancelQuote, onSendText, onTyping, onDraft } = props;
  const blocked = props.blocked ?? null;
  const { t } = useTranslation();
  const [text, setText] = useState(initialDraft);
  const [voice, setVoice] = useState(false);
  const [openPanel, setPanel] = useState<Panel>('none');
  // A mute that starts while a panel is open closes it: nothing in it could be sent.
  const panel: Panel = blocked ? 'none' : openPanel;
  const input = useRef<HTMLTextAreaElement>(null);
  const lastTyping = useRef(0);
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<MentionTarget[]>([]);
  const typingMention = props.mention ? activeMention(text, caret) : null;
  // The draft the server (or this browser) holds: what typing is compared with before saving.
  const saved = useRef(initialDraft);
  const latest = useRef({ text, onDraft });

  useEffect(() => {
    latest.current = { text, onDraft };
  });

  // The draft is saved as it is typed, once typing pauses (so a reload or another device finds
  // it), and at once when leaving the conversation or the page.
  useEffect(() => {
    const flush = (): void => {
      const { text: current, onDraft: save } = latest.current;
      if (current.trim() === saved.current.trim()) return;
      saved.current = current;
      save(current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);
  useEffect(() => {
    if (text.trim() === saved.current.trim()) return;
    const id = window.setTimeout(() => {
      saved.current = text;
      latest.current.onDraft(text);
    }, DRAFT_SAVE_MS);
    return () => {
      window.clearTimeout(id);
    };
  }, [text]);

  useEffect(() => {
    if (quote) input.current?.focus();
  }, [quote]);

  const toggle = (next: Panel): void => {
    setPanel((current) => (current === next ? 'none' : next));
    setVoice(false);
  };

  // An emoji goes into the text where the caret is (a chat app's emoji are characters of the
  // message, sent with it when the user sends); the panel stays open for the next one.
  const insertFace = (face: string): void => {
    const field = input.current;
    const start = field?.selectionStart ?? text.length;
    const end = field?.selectionEnd ?? start;
    const next = text.slice(0, start) + face + text.slice(end);
    const at = start + face.length;
    flushSync(() => {
      setText(next);
      setCaret(at);
    });
    field?.setSelectionRange(at, at);
  };

  const onTextChange = (value: string): void => {
    setText(value);
    setCaret(input.current?.selectionStart ?? value.length);
    if (!value) setPicked([]);
    const now = Date.now();
    if (value && now - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = now;
      onTyping();
    }
  };

  return (
    <SharedComposer
      look="compact"
      text={text}
      onTextChange={onTextChange}
      onSend={(value) => {
        onSendText(value, mentionsIn(value, picked));
        setPicked([]);
        // Sending clears the draft (here, in the list and on the user's other devices).
        if (saved.current.trim() !== '') {
          saved.current = '';
          onDraft('');
        }
      }}
      label={t('chat.composer.placeholder')}
      placeholder={blocked ?? t('chat.composer.placeholder')}
      locked={blocked !== null}
      sendLabel={t('chat.composer.send')}
      inputRef={input}
      onFocus={() => {
        setPanel('none');
      }}
      above={
        typingMention && props.mention ? (
          <MentionPicker
            members={props.mention.members}
            query={typingMention.query}
            me={me}
            canMentionAll={props.mention.canMentionAll}
            onPick={(target) => {
              const next = insertMention(text, typingMention.start, caret, target.name);
              // The new text is committed and the caret placed before this handler returns:
              // a key pressed right after the pick (a fast typist, a slow phone) must land
              // after the mention, not where a caret placed on the next frame would move it.
              flushSync(() => {
                setText(next.text);
                setCaret(next.caret);
                setPicked((list) => [...list, target]);
              });
              input.current?.focus();
              input.current?.setSelectionRange(next.caret, next.caret);
            }}
          />
        ) : quote ? (
          <div className="composer-quote">
            <span className="composer-quote__text">
              {t('chat.composer.replyTo', { name: quote.senderNickname, text: messageText(quote, me, t) })}
            </span>
            <button type="button" className="icon-button chat-icon-button" onClick={onCancelQuote} aria-label={t('chat.composer.cancelQuote')}>
              ×
            </button>
          </div>
        ) : null
      }
      before={
        <button
          type="button"
          className="icon-button chat-icon-button"
          disabled={blocked !== null}
          onClick={() => {
            setVoice((v) => !v);
            setPanel('none');
          }}
          aria-label={voice ? t('chat.composer.keyboard') : t('chat.composer.voice')}
        >
          {voice ? <KeyboardIcon /> : <MicIcon />}
        </button>
      }
      replaceField={voice && !blocked ? <VoiceButton onRecorded={props.onVoice} /> : undefined}
      after={
        <PanelButton name="faces" open={panel} label={t('chat.composer.faces')} onToggle={toggle} disabled={blocked !== null}>
          <SmileIcon />
        </PanelButton>
      }
      idle={
        <PanelButton name="more" open={panel} label={t('chat.composer.more')} onToggle={toggle} disabled={blocked !== null}>
          <PlusIcon size={24} />
        </PanelButton>
      }
      below={
        <>
          {panel === 'faces' ? (
            <FacePanel onPick={insertFace} />
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
        </>
      }
    />
  );
}

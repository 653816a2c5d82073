/**
 * Reactions, edits and quote jumps of the open conversation (PROTOCOL.md "Reactions and
 * edits"): the message menu's "React" and "Edit", the emoji and "who reacted" sheets, the edit
 * dialog, and what a row's parts ask of the conversation (messageActions.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import { ContentType, MessageStatus, type MessageItem, type MessageReaction } from '../../../api/socket/types';
import { ActionSheet, type SheetAction } from '../../../components/action-sheet/ActionSheet';
import { Dialog } from '../../../components/dialog/Dialog';
import { showToast } from '../../../state/toast';
import { chatErrorText } from '../data/errors';
import { EDIT_WINDOW_MS } from '../data/marks';
import { loadAround, updateWindow, type ChatMessage } from '../data/messages';
import { MessageActionsContext, type MessageActions } from './messageActions';

/** The emoji offered in the message menu. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

interface Options {
  conversationID: string;
  me: string;
  /** A user's name as this conversation shows it. */
  nameOf: (userID: string) => string;
  /** Brings a held message into view (the list's focus). */
  focus: (localKey: string) => void;
}

/** Sets a message's reactions or text in the window at once (the notice confirms it later). */
function patch(client: ReturnType<typeof useQueryClient>, conversationID: string, clientMsgID: string, change: Partial<ChatMessage>): void {
  updateWindow(client, conversationID, (w) => ({
    ...w,
    messages: w.messages.map((m) => (m.clientMsgID === clientMsgID ? { ...m, ...change } : m)),
  }));
}

export function useMessageMarks({ conversationID, me, nameOf, focus }: Options) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [pickFor, setPickFor] = useState<ChatMessage | null>(null);
  const [whoFor, setWhoFor] = useState<{ message: ChatMessage; reaction: MessageReaction } | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  const toggle = (m: ChatMessage, emoji: string): void => {
    const mineNow = m.reactions?.find((r) => r.emoji === emoji)?.userIDList.includes(me) ?? false;
    const call = mineNow ? chat.deleteMessageReaction : chat.addMessageReaction;
    call(conversationID, m.clientMsgID, emoji).then(
      (reactions) => {
        patch(client, conversationID, m.clientMsgID, { reactions });
      },
      (e: unknown) => {
        showToast(chatErrorText(e, t));
      },
    );
  };

  const actions = useMemo<MessageActions>(
    () => ({
      jumpTo: (quoted: MessageItem) => {
        loadAround(client, conversationID, quoted.seq).then(
          (found) => {
            if (found) focus(found.localKey);
            else showToast(t('chat.search.messageGone'));
          },
          (e: unknown) => {
            showToast(chatErrorText(e, t));
          },
        );
      },
      showReaction: (message, reaction) => {
        setWhoFor({ message, reaction });
      },
    }),
    [client, conversationID, focus, t],
  );

  /** The menu entries for a message: React on any stored one, Edit on one's own recent text. */
  const menuFor = (m: ChatMessage): SheetAction[] => {
    if (m.seq <= 0 || m.status !== MessageStatus.sent) return [];
    const items: SheetAction[] = [{ label: t('chat.message.react'), onSelect: () => { setPickFor(m); } }];
    if (m.sendID === me && m.contentType === ContentType.text && Date.now() - m.sendTime < EDIT_WINDOW_MS) {
      items.push({
        label: t('chat.message.edit'),
        onSelect: () => {
          setText(m.textElem?.content ?? '');
          setEditing(m);
        },
      });
    }
    return items;
  };

  const save = (): void => {
    if (!editing) return;
    const m = editing;
    setBusy(true);
    chat.editMessage(conversationID, m.clientMsgID, text).then(
      (edited) => {
        patch(client, conversationID, m.clientMsgID, { textElem: edited.textElem, content: edited.content, editTime: edited.editTime });
        setBusy(false);
        setEditing(null);
      },
      (e: unknown) => {
        setBusy(false);
        showToast(chatErrorText(e, t));
      },
    );
  };

  const provide = (children: ReactNode): ReactNode => (
    <MessageActionsContext.Provider value={actions}>{children}</MessageActionsContext.Provider>
  );

  const who = whoFor?.reaction;
  const mine = who?.userIDList.includes(me) ?? false;
  const sheets = (
    <>
      {pickFor ? (
        <ActionSheet
          title={t('chat.message.react')}
          actions={QUICK_REACTIONS.map((emoji) => ({
            label: emoji,
            onSelect: () => {
              toggle(pickFor, emoji);
            },
          }))}
          onClose={() => {
            setPickFor(null);
          }}
        />
      ) : null}
      {whoFor && who ? (
        <ActionSheet
          title={t('chat.message.reactedWith', { emoji: who.emoji })}
          actions={[
            ...who.userIDList.map((id) => ({ label: nameOf(id), onSelect: () => undefined })),
            {
              label: mine ? t('chat.message.removeMine', { emoji: who.emoji }) : t('chat.message.addMine', { emoji: who.emoji }),
              onSelect: () => {
                toggle(whoFor.message, who.emoji);
              },
            },
          ]}
          onClose={() => {
            setWhoFor(null);
          }}
        />
      ) : null}
      <Dialog
        open={editing !== null}
        title={t('chat.message.editTitle')}
        onClose={busy ? undefined : () => { setEditing(null); }}
        actions={
          <>
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => { setEditing(null); }}>
              {t('chat.cancel')}
            </button>
            <button type="button" className="button" disabled={busy || text.trim() === ''} onClick={save} data-testid="edit-save">
              {t('chat.message.editSave')}
            </button>
          </>
        }
      >
        <textarea
          className="msg-edit__text"
          value={text}
          maxLength={5000}
          rows={4}
          aria-label={t('chat.message.editTitle')}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </Dialog>
    </>
  );

  return { provide, menuFor, sheets };
}

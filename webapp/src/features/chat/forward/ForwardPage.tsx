import { useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { Loading } from '../../../components/status/LoadState';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { useConversations, useMe } from '../data/hooks';
import { targetOf } from '../data/ids';
import { messageText } from '../data/preview';
import { sendBuilt } from '../data/send';
import { toggled } from '../data/selection';
import { forwardDraftAtom } from './state';
import '../groups/groups.css';

/**
 * /pages/chat/forward: sends the chosen messages to several conversations, one by one or
 * merged into one chat history.
 */
export function ForwardPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [draft, setDraft] = useAtom(forwardDraftAtom);
  const conversations = useConversations();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [sending, setSending] = useState(false);

  if (!draft || draft.messages.length === 0) {
    return (
      <main className="chat-page">
        <PageHeader title={t('chat.forward.title')} back />
        <EmptyState title={t('chat.forward.nothing')} />
      </main>
    );
  }

  const send = async (): Promise<void> => {
    if (sending || selected.size === 0) return;
    setSending(true);
    const summaries = draft.messages.slice(0, 4).map((m) => t('chat.preview.withSender', { name: m.senderNickname, text: messageText(m, me, t) }));
    let failed = 0;
    for (const id of selected) {
      const target = targetOf(id, me);
      if (!target) continue;
      try {
        // A message is built per conversation: a clientMsgID is unique within one.
        const built = draft.merge
          ? [await chat.createMergerMessage(draft.messages, draft.title, summaries)]
          : await Promise.all(draft.messages.map((m) => chat.createForwardMessage(m)));
        for (const message of built) {
          if (!(await sendBuilt(client, target, message, t))) failed += 1;
        }
      } catch {
        failed += 1;
      }
    }
    setSending(false);
    if (failed > 0) {
      showToast(t('chat.forward.failed', { count: failed }));
      return;
    }
    showToast(t('chat.forward.done'));
    setDraft(null);
    void navigate(-1);
  };

  const list = conversations.data ?? [];
  return (
    <main className="chat-page">
      <PageHeader title={t('chat.forward.title')} back />
      <p className="chat-section-title">
        {draft.merge ? t('chat.forward.mergeSummary', { title: draft.title }) : t('chat.forward.summary', { count: draft.messages.length })}
      </p>
      {conversations.isPending ? (
        <Loading />
      ) : (
        <VirtualList
          items={list}
          label={t('chat.forward.pick')}
          getKey={(c) => c.conversationID}
          footer={list.length === 0 ? <EmptyState title={t('pages.chat.emptyTitle')} /> : null}
          renderItem={(c) => (
            <label className="chat-row chat-row--action picker-row">
              <input
                type="checkbox"
                className="picker-row__check"
                checked={selected.has(c.conversationID)}
                onChange={() => {
                  setSelected((current) => toggled(current, c.conversationID));
                }}
              />
              <Avatar decorative name={c.showName} src={c.faceURL} size={40} square={Boolean(c.groupID)} />
              <span className="chat-row__main">
                <span className="chat-row__title">{c.showName}</span>
              </span>
            </label>
          )}
        />
      )}
      <div className="group-bottom-bar">
        <button
          type="button"
          className="button button--block"
          disabled={selected.size === 0 || sending}
          onClick={() => void send()}
        >
          {sending ? t('chat.sending') : t('chat.forward.send', { count: selected.size })}
        </button>
      </div>
    </main>
  );
}

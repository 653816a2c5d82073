import { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationItem } from '../../../api/socket/types';
import { STORAGE_KEYS } from '../../../api/storage';
import { connectedSocket } from '../../../test/fakeSocket';
import { memoryStore } from '../../../test/memoryStore';
import { chatKeys } from '../data/keys';
import { textMessage } from '../data/testMessages';
import { askNotificationsOnce, bindNotifications, notificationsOn, setNotifications, shouldNotify, type NotifyEnv, type NotifyPermission } from './notifications';

function conversation(id: string, over: Partial<ConversationItem> = {}): ConversationItem {
  return {
    conversationID: id, conversationType: 1, userID: '', groupID: '', showName: `name ${id}`, faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: '', latestMsgSendTime: 0, draftText: '', draftTextTime: 0,
    isPinned: false, isNotInGroup: false, maxSeq: 0, hasReadSeq: 0, minSeq: 0, ...over,
  };
}

function fakeEnv(permission: NotifyPermission, answer: NotifyPermission = 'granted') {
  const shown: { title: string; options: NotificationOptions; click: () => void }[] = [];
  const state = { permission, hidden: true };
  const env: NotifyEnv = {
    hidden: () => state.hidden,
    permission: () => state.permission,
    request: vi.fn(() => {
      state.permission = answer;
      return Promise.resolve(answer);
    }),
    show: (title, options, click) => {
      shown.push({ title, options, click });
    },
  };
  return { env, shown, state };
}

const t = ((key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key)) as unknown as TFunction;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('notifications', () => {
  it('notifies only hidden, foreign, user messages of conversations not muted', () => {
    const m = textMessage({ clientMsgID: 'a', sendID: '2', recvID: '1' });
    expect(shouldNotify(m, '1', conversation('si_1_2'), true)).toBe(true);
    expect(shouldNotify(m, '1', undefined, true)).toBe(true);
    expect(shouldNotify(m, '1', conversation('si_1_2'), false)).toBe(false);
    expect(shouldNotify(m, '2', conversation('si_1_2'), true)).toBe(false);
    expect(shouldNotify(m, '1', conversation('si_1_2', { recvMsgOpt: 2 }), true)).toBe(false);
    expect(shouldNotify({ ...m, contentType: 113 }, '1', undefined, true)).toBe(false);
    expect(shouldNotify({ ...m, contentType: 1201 }, '1', undefined, true)).toBe(false);
  });

  it('asks once after the first message, and not again whatever the answer', async () => {
    const store = memoryStore();
    const { env } = fakeEnv('default', 'denied');
    expect(await askNotificationsOnce(env, store)).toBe(false);
    expect(env.request).toHaveBeenCalledTimes(1);
    expect(store.get(STORAGE_KEYS.chatNotify)).toBe('off');
    await askNotificationsOnce(env, store);
    expect(env.request).toHaveBeenCalledTimes(1);
  });

  it('does not prompt when the browser already allows them, and the toggle turns them off and on', async () => {
    const store = memoryStore();
    const { env } = fakeEnv('granted');
    expect(await askNotificationsOnce(env, store)).toBe(true);
    expect(env.request).not.toHaveBeenCalled();
    expect(notificationsOn(env, store)).toBe(true);
    expect(await setNotifications(false, env, store)).toBe(false);
    expect(notificationsOn(env, store)).toBe(false);
    expect(await setNotifications(true, env, store)).toBe(true);
    expect(notificationsOn(env, store)).toBe(true);
  });

  it('shows a pushed message while hidden, names the chat and opens it on click; muted chats stay quiet', async () => {
    const harness = await connectedSocket();
    const client = new QueryClient();
    client.setQueryData(chatKeys.conversations, [conversation('si_1_2'), conversation('si_1_3', { recvMsgOpt: 2 })]);
    const store = memoryStore({ [STORAGE_KEYS.chatNotify]: 'on' });
    const { env, shown, state } = fakeEnv('granted');
    const open = vi.fn();
    const off = bindNotifications(client, t, open, harness.socket, env, store);

    harness.ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'a', sendID: '3', recvID: '1' }));
    harness.ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'b', sendID: '2', recvID: '1', textElem: { content: 'hello there' } }));
    state.hidden = false;
    harness.ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'c', sendID: '2', recvID: '1' }));
    expect(shown).toHaveLength(1);
    expect(shown[0]?.title).toBe('name si_1_2');
    expect(shown[0]?.options).toMatchObject({ body: 'hello there', tag: 'si_1_2' });
    shown[0]?.click();
    expect(open).toHaveBeenCalledWith('si_1_2');

    state.hidden = true;
    store.set(STORAGE_KEYS.chatNotify, 'off');
    harness.ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'd', sendID: '2', recvID: '1' }));
    expect(shown).toHaveLength(1);
    off();
  });
});

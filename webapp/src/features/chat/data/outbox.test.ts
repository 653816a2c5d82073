import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat } from '../../../api/chat';
import { ChatErrorCode, ChatRequestError, SocketErrorCode } from '../../../api/socket/protocol';
import { ContentType, MessageStatus, type MessageItem } from '../../../api/socket/types';
import { STORAGE_KEYS } from '../../../api/storage';
import { createI18n } from '../../../i18n';
import { memoryStore } from '../../../test/memoryStore';
import { chatKeys } from './keys';
import type { MessageWindow } from './messages';
import {
  flushOutbox,
  forgetInOutbox,
  keepInOutbox,
  newClientMsgID,
  outboxOf,
  outboxTakes,
  outboxText,
  queueText,
  retryQueued,
  setOutboxFailure,
  showOutbox,
} from './outbox';
import { textMessage } from './testMessages';

const i18n = createI18n('en-US');
const t = i18n.t.bind(i18n);
const me = { userID: '1', nickname: 'me', faceURL: '' };
const target = { conversationID: 'si_1_2', recvID: '2', groupID: '' };

function setup() {
  const client = new QueryClient();
  client.setQueryData<MessageWindow>(chatKeys.messages(target.conversationID), { messages: [], isEnd: true });
  const messages = () => client.getQueryData<MessageWindow>(chatKeys.messages(target.conversationID))?.messages ?? [];
  return { client, messages, store: memoryStore() };
}

/** The server's answer to a send: the message stored, with the next seq. */
function stored(message: MessageItem, seq: number): MessageItem {
  return { ...message, seq, serverMsgID: `s${seq}`, status: MessageStatus.sent };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('outbox store', () => {
  it('keeps each user\'s messages in the order written, survives a new reader of the same storage, and forgets', () => {
    const store = memoryStore();
    const a = outboxText(me, target, 'one', 10);
    const b = outboxText(me, target, 'two', 11);
    keepInOutbox('1', { target, message: a }, store);
    keepInOutbox('1', { target, message: b }, store);
    keepInOutbox('1', { target, message: a }, store); // the same clientMsgID is kept once
    keepInOutbox('9', { target, message: outboxText({ ...me, userID: '9' }, target, 'not mine', 12) }, store);
    // What a reload reads: the stored text itself.
    const reread = memoryStore({ [STORAGE_KEYS.chatOutbox]: store.get(STORAGE_KEYS.chatOutbox) ?? '' });
    expect(outboxOf('1', reread).map((e) => [e.message.textElem?.content, e.message.createTime])).toEqual([['one', 10], ['two', 11]]);
    expect(outboxOf('9', reread)).toHaveLength(1);

    setOutboxFailure('1', a.clientMsgID, { code: 1311, text: 'blocked' }, store);
    expect(outboxOf('1', store).map((e) => e.failure?.code)).toEqual([1311, undefined]);
    setOutboxFailure('1', a.clientMsgID, null, store);
    expect(outboxOf('1', store)[0]?.failure).toBeUndefined();
    expect(outboxOf('1', store)[0]?.message.clientMsgID).toBe(a.clientMsgID);

    forgetInOutbox('1', a.clientMsgID, store);
    forgetInOutbox('1', b.clientMsgID, store);
    forgetInOutbox('9', outboxOf('9', store)[0]?.message.clientMsgID ?? '', store);
    expect(store.get(STORAGE_KEYS.chatOutbox)).toBeNull();
  });

  it('ignores what it cannot read', () => {
    expect(outboxOf('1', memoryStore({ [STORAGE_KEYS.chatOutbox]: '{not json' }))).toEqual([]);
    expect(outboxOf('1', memoryStore({ [STORAGE_KEYS.chatOutbox]: JSON.stringify({ 1: [{ nope: true }, 5] }) }))).toEqual([]);
  });

  it('builds a text as the server expects it: a 32-hex clientMsgID and the clock mark', () => {
    const m = outboxText(me, target, 'hi', 1234);
    expect(m.clientMsgID).toMatch(/^[0-9a-f]{32}$/);
    expect(newClientMsgID()).not.toBe(newClientMsgID());
    expect(m).toMatchObject({ contentType: ContentType.text, textElem: { content: 'hi' }, createTime: 1234, recvID: '2', groupID: '', sessionType: 1, seq: 0 });
  });

  it('takes new texts while the socket is down, offline, or earlier ones wait', () => {
    const store = memoryStore();
    expect(outboxTakes('1', 'connected', true, store)).toBe(false);
    expect(outboxTakes('1', 'connecting', true, store)).toBe(true);
    expect(outboxTakes('1', 'connected', false, store)).toBe(true);
    keepInOutbox('1', { target, message: outboxText(me, target, 'waiting', 1) }, store);
    expect(outboxTakes('1', 'connected', true, store)).toBe(true);
    setOutboxFailure('1', outboxOf('1', store)[0]?.message.clientMsgID ?? '', { code: 1311, text: '' }, store);
    expect(outboxTakes('1', 'connected', true, store)).toBe(false); // a failed one waits for the user, not for the network
  });
});

describe('sending the outbox', () => {
  it('sends in the order written, one at a time, with the clientMsgID given when written', async () => {
    const { client, messages, store } = setup();
    const one = queueText(client, me, target, 'one', 10, store);
    const two = queueText(client, me, target, 'two', 11, store);
    expect(messages().map((m) => [m.textElem?.content, m.status])).toEqual([['one', MessageStatus.sending], ['two', MessageStatus.sending]]);
    const order: string[] = [];
    let inFlight = 0;
    const send = vi.spyOn(chat, 'sendMessage').mockImplementation(async ({ message }) => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      order.push(message.clientMsgID);
      await Promise.resolve();
      inFlight -= 1;
      return stored(message, order.length);
    });
    await flushOutbox(client, '1', t, store);
    expect(order).toEqual([one.clientMsgID, two.clientMsgID]);
    const first = send.mock.calls[0]?.[0];
    expect([first?.message.clientMsgID, first?.message.createTime, first?.recvID, first?.groupID]).toEqual([one.clientMsgID, 10, '2', '']);
    expect(outboxOf('1', store)).toEqual([]);
    // The list keeps its keys: the sent copies replace the waiting ones.
    expect(messages().map((m) => [m.localKey, m.seq, m.status])).toEqual([
      [one.clientMsgID, 1, MessageStatus.sent],
      [two.clientMsgID, 2, MessageStatus.sent],
    ]);
    await flushOutbox(client, '1', t, store);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('stops at a lost connection and sends the same message again next time: the server keeps it once', async () => {
    const { client, store } = setup();
    const one = queueText(client, me, target, 'one', 10, store);
    queueText(client, me, target, 'two', 11, store);
    const send = vi.spyOn(chat, 'sendMessage').mockRejectedValueOnce(new ChatRequestError(SocketErrorCode.closed, 'socket closed', 'SendMessage'));
    await flushOutbox(client, '1', t, store);
    expect(send).toHaveBeenCalledTimes(1);
    expect(outboxOf('1', store)).toHaveLength(2);
    const ids: string[] = [];
    send.mockImplementation(({ message }) => {
      ids.push(message.clientMsgID);
      return Promise.resolve(stored(message, ids.length));
    });
    await flushOutbox(client, '1', t, store);
    expect(ids[0]).toBe(one.clientMsgID);
    expect(ids).toHaveLength(2);
    expect(outboxOf('1', store)).toEqual([]);
  });

  it('keeps a refused message failed, sends the rest, and retries or deletes it on request', async () => {
    const { client, messages, store } = setup();
    const refused = queueText(client, me, target, 'refused', 10, store);
    queueText(client, me, target, 'after', 11, store);
    const send = vi.spyOn(chat, 'sendMessage').mockImplementation(({ message }) =>
      message.clientMsgID === refused.clientMsgID
        ? Promise.reject(new ChatRequestError(ChatErrorCode.blacklisted, 'blocked', 'SendMessage'))
        : Promise.resolve(stored(message, 5)),
    );
    await flushOutbox(client, '1', t, store);
    expect(outboxOf('1', store).map((e) => [e.message.clientMsgID, e.failure?.code])).toEqual([[refused.clientMsgID, ChatErrorCode.blacklisted]]);
    const failed = messages().find((m) => m.clientMsgID === refused.clientMsgID);
    expect(failed?.status).toBe(MessageStatus.failed);
    expect(failed?.failure?.text).toBe(t('chat.errors.blacklisted'));

    // Retried: waiting again, in its place (not sent here: the socket is not signed in).
    await retryQueued(client, '1', failed!, t, store);
    expect(outboxOf('1', store)[0]?.failure).toBeUndefined();
    expect(messages().find((m) => m.clientMsgID === refused.clientMsgID)?.status).toBe(MessageStatus.sending);
    send.mockImplementation(({ message }) => Promise.resolve(stored(message, 6)));
    await flushOutbox(client, '1', t, store);
    expect(outboxOf('1', store)).toEqual([]);
    expect(messages().find((m) => m.clientMsgID === refused.clientMsgID)?.seq).toBe(6);
  });

  it('after a reload shows what still waits, and forgets what the history shows stored', () => {
    const { client, messages, store } = setup();
    const waiting = outboxText(me, target, 'waiting', 10);
    const arrived = outboxText(me, target, 'arrived', 9);
    keepInOutbox('1', { target, message: arrived }, store);
    keepInOutbox('1', { target, message: waiting }, store);
    keepInOutbox('1', { target: { conversationID: 'si_1_3', recvID: '3', groupID: '' }, message: outboxText(me, target, 'elsewhere', 11) }, store);
    client.setQueryData<MessageWindow>(chatKeys.messages(target.conversationID), {
      messages: [{ ...textMessage({ clientMsgID: arrived.clientMsgID, seq: 4, sendID: '1' }), localKey: arrived.clientMsgID }],
      isEnd: true,
    });
    showOutbox(client, '1', target.conversationID, store);
    expect(messages().map((m) => [m.clientMsgID, m.seq])).toEqual([[arrived.clientMsgID, 4], [waiting.clientMsgID, 0]]);
    expect(outboxOf('1', store).map((e) => e.message.textElem?.content)).toEqual(['waiting', 'elsewhere']);
  });
});

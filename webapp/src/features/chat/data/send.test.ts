import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat } from '../../../api/chat';
import { ChatRequestError } from '../../../api/socket/protocol';
import { ContentType, MessageStatus } from '../../../api/socket/types';
import { createI18n } from '../../../i18n';
import { chatKeys } from './keys';
import type { MessageWindow } from './messages';
import { canRetry, placeholder, retry, sendMessage } from './send';
import { textMessage } from './testMessages';

const i18n = createI18n('en-US');
const t = i18n.t.bind(i18n);
const target = { conversationID: 'sg_7', recvID: '', groupID: '7' };
const me = { userID: '1', nickname: 'me', faceURL: '' };

function setup() {
  const client = new QueryClient();
  client.setQueryData<MessageWindow>(chatKeys.messages('sg_7'), { messages: [], isEnd: true });
  const messages = () => client.getQueryData<MessageWindow>(chatKeys.messages('sg_7'))?.messages ?? [];
  return { client, messages };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('optimistic send', () => {
  it('shows the message at once as sending, then as sent with the server copy', async () => {
    const { client, messages } = setup();
    const built = textMessage({ clientMsgID: 'srv1', seq: 0, status: MessageStatus.sending, sendID: '1', groupID: '7' });
    let answer: (m: typeof built) => void = () => undefined;
    vi.spyOn(chat, 'sendMessage').mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    const stand = placeholder(me, target, { contentType: ContentType.text, textElem: { content: 'hi' } });
    const done = sendMessage(client, target, stand, () => Promise.resolve(built), t);
    expect(messages()).toHaveLength(1);
    expect(messages()[0]?.status).toBe(MessageStatus.sending);
    await vi.waitFor(() => {
      expect(messages()[0]?.clientMsgID).toBe('srv1');
    });
    answer({ ...built, seq: 9, status: MessageStatus.sent });
    expect(await done).toBe(true);
    expect(messages()).toHaveLength(1);
    expect(messages()[0]).toMatchObject({ seq: 9, status: MessageStatus.sent, localKey: stand.localKey });
  });

  it('keeps a refused message as failed with the reason, and a tap resends it', async () => {
    const { client, messages } = setup();
    const built = textMessage({ clientMsgID: 'srv2', seq: 0, status: MessageStatus.sending, sendID: '1', groupID: '7' });
    const send = vi.spyOn(chat, 'sendMessage').mockRejectedValueOnce(new ChatRequestError(1322, 'server text', 'SendMessage'));
    const build = vi.fn(() => Promise.resolve(built));
    const stand = placeholder(me, target, { contentType: ContentType.text, textElem: { content: 'hi' } });
    expect(await sendMessage(client, target, stand, build, t)).toBe(false);
    const failed = messages()[0];
    expect(failed).toMatchObject({ status: MessageStatus.failed, failure: { code: 1322, text: 'You have been muted in this group' } });
    expect(failed && canRetry(failed)).toBe(true);

    send.mockResolvedValueOnce({ ...built, seq: 3, status: MessageStatus.sent });
    expect(failed && (await retry(client, failed, t))).toBe(true);
    // The same built message is resent (the server drops a repeated clientMsgID), not rebuilt.
    expect(build).toHaveBeenCalledTimes(1);
    expect(send.mock.calls.map((c) => c[0].message.clientMsgID)).toEqual(['srv2', 'srv2']);
    expect(messages()).toHaveLength(1);
    expect(messages()[0]).toMatchObject({ status: MessageStatus.sent, seq: 3 });
    expect(messages()[0]?.failure).toBeUndefined();
  });

  it('fails a message whose upload or build fails, and builds it again on retry', async () => {
    const { client, messages } = setup();
    const build = vi
      .fn()
      .mockRejectedValueOnce(new ChatRequestError(1319, 'x', 'CreateTextMessage'))
      .mockResolvedValueOnce(textMessage({ clientMsgID: 'srv3', seq: 0, sendID: '1', groupID: '7' }));
    vi.spyOn(chat, 'sendMessage').mockResolvedValue(textMessage({ clientMsgID: 'srv3', seq: 4, sendID: '1', groupID: '7' }));
    const stand = placeholder(me, target, { contentType: ContentType.text, textElem: { content: 'hi' } });
    expect(await sendMessage(client, target, stand, build, t)).toBe(false);
    expect(messages()[0]?.failure?.text).toBe('This group has been dismissed');
    const failed = messages()[0];
    expect(failed && (await retry(client, failed, t))).toBe(true);
    expect(build).toHaveBeenCalledTimes(2);
    expect(messages().map((m) => m.clientMsgID)).toEqual(['srv3']);
  });
});

import { describe, expect, it } from 'vitest';
import { ContentType, type MessageItem } from '../../../api/socket/types';
import { isMarkNotice } from './marks';
import { mergeMessages } from './messages';
import { textMessage } from './testMessages';

function reactionNotice(seq: number, target: string, reactions: { emoji: string; count: number; userIDList: string[] }[]): MessageItem {
  const detail = JSON.stringify({ conversationID: 'si_1_2', clientMsgID: target, seq: 1, userID: '2', nickname: 'b', emoji: '👍', add: true, reactions });
  return textMessage({ clientMsgID: `r${seq}`, seq, contentType: ContentType.reaction, textElem: undefined, notificationElem: { detail } });
}

function editNotice(seq: number, target: string, text: string): MessageItem {
  const detail = JSON.stringify({ conversationID: 'si_1_2', clientMsgID: target, seq: 1, editorID: '1', editTime: 5000 + seq, textElem: { content: text } });
  return textMessage({ clientMsgID: `e${seq}`, seq, contentType: ContentType.edit, textElem: undefined, notificationElem: { detail } });
}

describe('reactions and edits in the window', () => {
  it('applies live notices to the message they name', () => {
    const held = mergeMessages([], [textMessage({ clientMsgID: 'a', seq: 1, textElem: { content: 'hi' } })]);
    const reacted = mergeMessages(held, [reactionNotice(2, 'a', [{ emoji: '👍', count: 1, userIDList: ['2'] }])]);
    expect(reacted.find((m) => m.clientMsgID === 'a')?.reactions).toEqual([{ emoji: '👍', count: 1, userIDList: ['2'] }]);
    const edited = mergeMessages(reacted, [editNotice(3, 'a', 'hello')]);
    const a = edited.find((m) => m.clientMsgID === 'a');
    expect(a?.textElem?.content).toBe('hello');
    expect(a?.editTime).toBe(5003);
    expect(a?.reactions?.[0]?.count).toBe(1);
  });

  it('does not replay the notices of a page onto the state folded into it', () => {
    // The page came with the message as it is now (two reactions, edited); its older notices
    // (one reaction, the first text) must not take it back.
    const folded = textMessage({ clientMsgID: 'a', seq: 1, textElem: { content: 'final' }, editTime: 9, reactions: [{ emoji: '👍', count: 2, userIDList: ['2', '1'] }] });
    const page = mergeMessages([], [folded, reactionNotice(2, 'a', [{ emoji: '👍', count: 1, userIDList: ['2'] }]), editNotice(3, 'a', 'first')]);
    const a = page.find((m) => m.clientMsgID === 'a');
    expect(a?.reactions?.[0]?.count).toBe(2);
    expect(a?.textElem?.content).toBe('final');
    // A later catch-up page with a newer notice does change it.
    const caught = mergeMessages(page, [reactionNotice(4, 'a', [])]);
    expect(caught.find((m) => m.clientMsgID === 'a')?.reactions).toEqual([]);
  });

  it('knows the notices that are not rows', () => {
    expect(isMarkNotice({ contentType: ContentType.reaction })).toBe(true);
    expect(isMarkNotice({ contentType: ContentType.edit })).toBe(true);
    expect(isMarkNotice({ contentType: ContentType.text })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../i18n';
import { ContentType, SessionType } from '../../../api/socket/types';
import { formatDuration, formatMuteLeft, messageText, noticeText, previewText } from './preview';
import { textMessage } from './testMessages';

const i18n = createI18n('en-US');
const t = i18n.t.bind(i18n);
const zh = createI18n('zh-CN');
const tZh = zh.t.bind(zh);

function notice(contentType: number, detail: unknown) {
  return textMessage({
    clientMsgID: 'n',
    contentType,
    textElem: undefined,
    notificationElem: { detail: JSON.stringify(detail) },
    sessionType: SessionType.group,
    groupID: 'g',
  });
}

describe('message previews', () => {
  it('describes each type in one line', () => {
    expect(messageText(textMessage({ clientMsgID: 'a' }), '1', t)).toBe('text a');
    expect(messageText(textMessage({ clientMsgID: 'a', contentType: ContentType.picture, textElem: undefined }), '1', t)).toBe('[Image]');
    expect(
      messageText(
        textMessage({ clientMsgID: 'a', contentType: ContentType.file, textElem: undefined, fileElem: { fileName: 'a.pdf', filePath: '', uuid: '', sourceUrl: '', fileSize: 1 } }),
        '1',
        t,
      ),
    ).toBe('[File] a.pdf');
    expect(messageText(textMessage({ clientMsgID: 'a', contentType: 9999, textElem: undefined }), '1', t)).toBe(
      '[Unsupported message type]',
    );
  });

  it('names the sender in groups', () => {
    const m = textMessage({ clientMsgID: 'a', sessionType: SessionType.group, groupID: 'g', senderNickname: 'bob' });
    expect(previewText(m, '1', true, t)).toBe('bob: text a');
    expect(previewText({ ...m, sendID: '1' }, '1', true, t)).toBe('You: text a');
    expect(previewText(m, '1', false, t)).toBe('text a');
  });
});

describe('notices', () => {
  it('says who muted whom, for how long, in the reader’s grammar', () => {
    const m = notice(ContentType.memberMuted, { opUser: { userID: '9', nickname: 'owner' }, mutedUser: { userID: '1', nickname: 'me' }, mutedSeconds: 60 });
    expect(noticeText(m, '1', t)).toBe('owner muted you for 1 minute');
    expect(noticeText(m, '5', t)).toBe('owner muted me for 1 minute');
    const ended = notice(ContentType.memberUnmuted, { mutedUser: { userID: '1', nickname: 'me' } });
    expect(noticeText(ended, '1', t)).toBe('You can speak again');
  });

  it('joins "you" to the Chinese words without a space', () => {
    const ended = notice(ContentType.memberUnmuted, { mutedUser: { userID: '1', nickname: 'me' } });
    expect(noticeText(ended, '1', tZh)).toBe('你的禁言已结束');
    const muted = notice(ContentType.memberMuted, { opUser: { userID: '9', nickname: 'owner' }, mutedUser: { userID: '1', nickname: 'me' }, mutedSeconds: 600 });
    expect(noticeText(muted, '1', tZh)).toBe('owner将你禁言 10 分钟');
  });

  it('says a channel was created, not a group chat', () => {
    const owner = { userID: '9', nickname: 'owner' };
    expect(noticeText(notice(ContentType.groupCreated, { opUser: owner, group: { groupType: 3 } }), '1', t)).toBe('owner created the channel');
    expect(noticeText(notice(ContentType.groupCreated, { opUser: owner, group: { groupType: 2 } }), '1', t)).toBe('owner created the group');
    expect(noticeText(notice(ContentType.groupCreated, { opUser: { userID: '1' }, group: { groupType: 3 } }), '1', tZh)).toBe('你创建了频道');
  });

  it('gives the time a mute has left in minutes, rounded up', () => {
    expect(formatMuteLeft(10_000, t)).toBe('1 minute');
    expect(formatMuteLeft(60_000, t)).toBe('1 minute');
    expect(formatMuteLeft(60_001, t)).toBe('2 minutes');
    expect(formatMuteLeft(59 * 60_000, t)).toBe('59 minutes');
    expect(formatMuteLeft(60 * 60_000, t)).toBe('1 hour');
    expect(formatMuteLeft(95 * 60_000, t)).toBe('1 hour 35 minutes');
    expect(formatMuteLeft(26 * 3_600_000, t)).toBe('1 day 2 hours');
    expect(formatMuteLeft(0, t)).toBe('1 minute');
    expect(formatMuteLeft(5 * 60_000, tZh)).toBe('5 分钟');
  });

  it('tells who recalled a message', () => {
    const m = notice(ContentType.revoked, { revokerID: '2', revokerNickname: 'bob' });
    expect(noticeText(m, '1', t)).toBe('bob recalled a message');
    expect(noticeText(m, '2', t)).toBe('You recalled a message');
  });

  it('formats mute lengths in whole units', () => {
    expect(formatDuration(45, t)).toBe('45 seconds');
    expect(formatDuration(60, t)).toBe('1 minute');
    expect(formatDuration(7200, t)).toBe('2 hours');
    expect(formatDuration(86_400, t)).toBe('1 day');
  });
});

import { ContentType, MessageStatus, SessionType, type MessageItem } from '../../../api/socket/types';

/** A stored text message for tests. */
export function textMessage(over: Partial<MessageItem> & { clientMsgID: string }): MessageItem {
  return {
    serverMsgID: `s-${over.clientMsgID}`,
    createTime: 1_700_000_000_000,
    sendTime: 1_700_000_000_000,
    sessionType: SessionType.single,
    sendID: '2',
    recvID: '1',
    msgFrom: 100,
    contentType: ContentType.text,
    senderPlatformID: 5,
    senderNickname: 'bob',
    senderFaceUrl: '',
    groupID: '',
    content: '',
    seq: 1,
    isRead: false,
    status: MessageStatus.sent,
    ex: '',
    textElem: { content: `text ${over.clientMsgID}` },
    ...over,
  };
}

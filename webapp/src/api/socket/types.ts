/**
 * Object shapes of the chat protocol (OpenIM JS SDK v3 as our gateway sends them, see
 * actors/chat/model.go). Ids are decimal strings; times are unix milliseconds.
 */

/** contentType numbers (PROTOCOL.md "Numbers"). */
export const ContentType = {
  text: 101,
  picture: 102,
  voice: 103,
  video: 104,
  file: 105,
  atText: 106,
  merger: 107,
  card: 108,
  location: 109,
  custom: 110,
  typing: 113,
  quote: 114,
  face: 115,
  friendAdded: 1201,
  groupCreated: 1501,
  groupInfoSet: 1502,
  memberQuit: 1504,
  ownerTransferred: 1507,
  memberKicked: 1508,
  memberInvited: 1509,
  memberEnter: 1510,
  groupDismissed: 1511,
  memberMuted: 1512,
  memberUnmuted: 1513,
  groupMuted: 1514,
  groupUnmuted: 1515,
  memberInfoSet: 1516,
  memberSetAdmin: 1517,
  memberSetOrdinary: 1518,
  groupAnnouncement: 1519,
  groupNameSet: 1520,
  revoked: 2101,
  /** kj's: a reaction added to or taken back from a message (PROTOCOL.md "Reactions and edits"). */
  reaction: 2901,
  /** kj's: a text message edited. */
  edit: 2902,
} as const;

/** Notifications (friend, group, revoke) start here; they are shown as centred tips. */
export const NOTICE_FROM = 1000;

export const SessionType = { single: 1, group: 3 } as const;

/** Message status: sending 1, sent 2, failed 3. */
export const MessageStatus = { sending: 1, sent: 2, failed: 3 } as const;

/** recvMsgOpt of a conversation: 0 normal, 1 not received, 2 received without notifying (do not disturb). */
export const RecvMsgOpt = { normal: 0, off: 1, quiet: 2 } as const;

export const GroupRole = { member: 20, admin: 60, owner: 100 } as const;

/** Group status: 0 normal, 2 dismissed, 3 everyone muted. */
export const GroupStatus = { normal: 0, dismissed: 2, muted: 3 } as const;

/** groupType: 2 group chat, 3 channel. */
export const GroupType = { group: 2, channel: 3 } as const;

/** Friend/group application handleResult. */
export const HandleResult = { pending: 0, accepted: 1, refused: -1 } as const;

export interface PictureInfo {
  uuid: string;
  type: string;
  size: number;
  width: number;
  height: number;
  url: string;
}

export interface TextElem {
  content: string;
}
export interface CardElem {
  userID: string;
  nickname: string;
  faceURL: string;
  ex: string;
}
export interface PictureElem {
  sourcePath: string;
  sourcePicture: PictureInfo | null;
  bigPicture: PictureInfo | null;
  snapshotPicture: PictureInfo | null;
}
export interface SoundElem {
  uuid: string;
  soundPath: string;
  sourceUrl: string;
  dataSize: number;
  duration: number;
  soundType?: string;
}
export interface VideoElem {
  videoPath: string;
  videoUUID: string;
  videoUrl: string;
  videoType: string;
  videoSize: number;
  duration: number;
  snapshotPath: string;
  snapshotUUID: string;
  snapshotSize: number;
  snapshotUrl: string;
  snapshotWidth: number;
  snapshotHeight: number;
}
export interface FileElem {
  filePath: string;
  uuid: string;
  sourceUrl: string;
  fileName: string;
  fileSize: number;
  fileType?: string;
}
export interface MergeElem {
  title: string;
  abstractList: string[] | null;
  multiMessage: MessageItem[] | null;
}
export interface AtUserInfo {
  atUserID: string;
  groupNickname: string;
}
export interface AtTextElem {
  text: string;
  atUserList: string[] | null;
  atUsersInfo?: AtUserInfo[] | null;
  quoteMessage?: MessageItem;
  isAtSelf: boolean;
}
export interface FaceElem {
  index: number;
  data: string;
}
export interface LocationElem {
  description: string;
  longitude: number;
  latitude: number;
}
export interface CustomElem {
  data: string;
  description: string;
  extension: string;
}
export interface QuoteElem {
  text: string;
  quoteMessage: MessageItem | null;
}
export interface NotificationElem {
  detail: string;
}
export interface TypingElem {
  msgTips: string;
}

/** MessageItem. Exactly one element is set, matching contentType. */
export interface MessageItem {
  clientMsgID: string;
  serverMsgID: string;
  createTime: number;
  sendTime: number;
  sessionType: number;
  sendID: string;
  recvID: string;
  msgFrom: number;
  contentType: number;
  senderPlatformID: number;
  senderNickname: string;
  senderFaceUrl: string;
  groupID: string;
  content: string;
  seq: number;
  isRead: boolean;
  status: number;
  ex: string;
  textElem?: TextElem;
  cardElem?: CardElem;
  pictureElem?: PictureElem;
  soundElem?: SoundElem;
  videoElem?: VideoElem;
  fileElem?: FileElem;
  mergeElem?: MergeElem;
  atTextElem?: AtTextElem;
  faceElem?: FaceElem;
  locationElem?: LocationElem;
  customElem?: CustomElem;
  quoteElem?: QuoteElem;
  notificationElem?: NotificationElem;
  typingElem?: TypingElem;
  /** On one's own messages in a group small enough for read receipts. */
  attachedInfoElem?: AttachedInfoElem;
  /** kj's: the reactions to the message now (absent: none). */
  reactions?: MessageReaction[];
  /** kj's: when the message was last edited (ms; absent: never). */
  editTime?: number;
}

/** One emoji on a message: how many reacted with it and who, in the order they did. */
export interface MessageReaction {
  emoji: string;
  count: number;
  userIDList: string[];
}

/** The detail of a reaction notice (2901). */
export interface ReactionNotice {
  conversationID: string;
  clientMsgID: string;
  seq: number;
  userID: string;
  nickname: string;
  emoji: string;
  add: boolean;
  reactions: MessageReaction[];
}

/** The detail of an edit notice (2902). */
export interface EditNotice {
  conversationID: string;
  clientMsgID: string;
  seq: number;
  editorID: string;
  editTime: number;
  textElem: TextElem;
}

export interface AttachedInfoElem {
  groupHasReadInfo?: GroupHasReadInfo;
}

/** Who of a group (members when the message was sent, the sender aside) read a message. */
export interface GroupHasReadInfo {
  hasReadCount: number;
  unreadCount: number;
  hasReadUserIDList: string[] | null;
  groupMemberCount: number;
}

/** An item of OnRecvC2CReadReceipt: userID read the listed messages of a 1:1 chat. */
export interface ReceiptInfo {
  userID: string;
  groupID: string;
  msgIDList: string[] | null;
  readTime: number;
  sessionType: number;
}

/** OnRecvGroupReadReceipt: the new read state of some of one's messages in a group. */
export interface GroupMessageReceipt {
  conversationID: string;
  groupMessageReadInfo: {
    clientMsgID: string;
    hasReadCount: number;
    unreadCount: number;
    hasReadUserIDList: string[] | null;
  }[];
}

/** A user's presence: status 1 online, 0 offline; lastSeen (kj) is when they went offline (0: unknown or hidden). */
export interface UserStatus {
  userID: string;
  status: number;
  platformIDs: number[] | null;
  lastSeen: number;
}

/** The detail of a revoke notice (2101) and the data of OnNewRecvMessageRevoked. */
export interface RevokedInfo {
  revokerID: string;
  revokerRole: number;
  clientMsgID: string;
  revokerNickname: string;
  revokeTime: number;
  sourceMessageSendTime: number;
  sourceMessageSendID: string;
  sourceMessageSenderNickname: string;
  sessionType: number;
  seq: number;
  conversationID: string;
}

/** ConversationItem; maxSeq/hasReadSeq/minSeq are ours, for resync by seq. */
export interface ConversationItem {
  conversationID: string;
  conversationType: number;
  userID: string;
  groupID: string;
  showName: string;
  faceURL: string;
  recvMsgOpt: number;
  unreadCount: number;
  groupAtType: number;
  /** JSON of the latest MessageItem, or ''. */
  latestMsg: string;
  latestMsgSendTime: number;
  draftText: string;
  draftTextTime: number;
  isPinned: boolean;
  isNotInGroup: boolean;
  maxSeq: number;
  hasReadSeq: number;
  minSeq: number;
}

export interface GroupItem {
  groupID: string;
  groupName: string;
  notification: string;
  notificationUserID: string;
  notificationUpdateTime: number;
  introduction: string;
  faceURL: string;
  ownerUserID: string;
  createTime: number;
  memberCount: number;
  status: number;
  creatorUserID: string;
  groupType: number;
  needVerification: number;
}

export interface GroupMemberItem {
  groupID: string;
  userID: string;
  nickname: string;
  faceURL: string;
  roleLevel: number;
  muteEndTime: number;
  joinTime: number;
  joinSource: number;
  inviterUserID: string;
  operatorUserID: string;
}

export interface GroupApplicationItem {
  groupID: string;
  groupName: string;
  groupFaceURL: string;
  groupType: number;
  memberCount: number;
  userID: string;
  nickname: string;
  userFaceURL: string;
  reqMsg: string;
  reqTime: number;
  handleResult: number;
  handledMsg: string;
  handledTime: number;
  inviterUserID: string;
}

export interface FriendApplicationItem {
  createTime: number;
  fromUserID: string;
  fromNickname: string;
  fromFaceURL: string;
  toUserID: string;
  toNickname: string;
  toFaceURL: string;
  reqMsg: string;
  handleMsg: string;
  handleResult: number;
  handleTime: number;
}

export interface PublicUserItem {
  userID: string;
  nickname: string;
  faceURL: string;
}

export interface SelfUserInfo {
  userID: string;
  nickname: string;
  faceURL: string;
  createTime: number;
}

export interface FriendUserItem {
  userID: string;
  nickname: string;
  faceURL: string;
  remark: string;
  createTime: number;
}

export interface BlackUserItem {
  userID: string;
  nickname: string;
  faceURL: string;
  createTime: number;
}

export interface FullUserItem {
  publicInfo: PublicUserItem | null;
  friendInfo: FriendUserItem | null;
  blackInfo: BlackUserItem | null;
  groupMemberInfo?: GroupMemberItem;
}

export interface AdvancedMessages {
  isEnd: boolean;
  lastMinSeq: number;
  messageList: MessageItem[] | null;
}

/** A business notification of the node (`OnRecvCustomBusinessMessage`): data is JSON. */
export interface BusinessNotification {
  key: string;
  data: string;
}

/** Data of every push event the gateway sends, by event name. */
export interface PushEvents {
  OnConnectSuccess: null;
  OnKickedOffline: null;
  OnUserTokenExpired: null;
  OnSelfInfoUpdated: SelfUserInfo;
  OnRecvNewMessage: MessageItem;
  OnNewRecvMessageRevoked: RevokedInfo;
  OnConversationChanged: ConversationItem[];
  OnNewConversation: ConversationItem[];
  OnTotalUnreadMessageCountChanged: number;
  OnFriendApplicationAdded: FriendApplicationItem;
  OnFriendApplicationAccepted: FriendApplicationItem;
  OnFriendApplicationRejected: FriendApplicationItem;
  OnFriendAdded: FriendUserItem;
  OnFriendDeleted: FriendUserItem;
  OnFriendInfoChanged: FriendUserItem;
  OnBlackAdded: BlackUserItem;
  OnBlackDeleted: BlackUserItem;
  OnJoinedGroupAdded: GroupItem;
  OnJoinedGroupDeleted: GroupItem;
  OnGroupDismissed: GroupItem;
  OnGroupInfoChanged: GroupItem;
  OnGroupMemberAdded: GroupMemberItem;
  OnGroupMemberDeleted: GroupMemberItem;
  OnGroupMemberInfoChanged: GroupMemberItem;
  OnGroupApplicationAdded: GroupApplicationItem;
  OnGroupApplicationAccepted: GroupApplicationItem;
  OnGroupApplicationRejected: GroupApplicationItem;
  OnRecvCustomBusinessMessage: BusinessNotification;
  OnRecvC2CReadReceipt: ReceiptInfo[];
  OnRecvGroupReadReceipt: GroupMessageReceipt;
  OnUserStatusChanged: UserStatus;
}

export type PushEventName = keyof PushEvents;

export const PUSH_EVENTS: readonly PushEventName[] = [
  'OnConnectSuccess',
  'OnKickedOffline',
  'OnUserTokenExpired',
  'OnSelfInfoUpdated',
  'OnRecvNewMessage',
  'OnNewRecvMessageRevoked',
  'OnConversationChanged',
  'OnNewConversation',
  'OnTotalUnreadMessageCountChanged',
  'OnFriendApplicationAdded',
  'OnFriendApplicationAccepted',
  'OnFriendApplicationRejected',
  'OnFriendAdded',
  'OnFriendDeleted',
  'OnFriendInfoChanged',
  'OnBlackAdded',
  'OnBlackDeleted',
  'OnJoinedGroupAdded',
  'OnJoinedGroupDeleted',
  'OnGroupDismissed',
  'OnGroupInfoChanged',
  'OnGroupMemberAdded',
  'OnGroupMemberDeleted',
  'OnGroupMemberInfoChanged',
  'OnGroupApplicationAdded',
  'OnGroupApplicationAccepted',
  'OnGroupApplicationRejected',
  'OnRecvCustomBusinessMessage',
  'OnRecvC2CReadReceipt',
  'OnRecvGroupReadReceipt',
  'OnUserStatusChanged',
];

/** One conversation's matches of a message search (SearchLocalMessages). */
export interface SearchResultItem {
  conversationID: string;
  conversationType: number;
  showName: string;
  faceURL: string;
  messageCount: number;
  messageList: MessageItem[];
}
/** totalCount: the matches up to this page, plus one when more follow. */
export interface SearchMessagesResult {
  totalCount: number;
  searchResultItems?: SearchResultItem[] | null;
}

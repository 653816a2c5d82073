/**
 * The chat API of the web app: typed calls over the one chat socket (names and argument
 * order of the OpenIM SDK v3, PROTOCOL.md), the chat HTTP routes, uploads, and the session
 * controller that keeps the socket signed in while a user is (wsToken + userId in storage).
 *
 *   chat.sendMessage({ message, recvID })
 *   chat.on('OnRecvNewMessage', (message) => ...)
 *   onBusinessPush('balance', (data) => ...)
 */
import { atom } from 'jotai';
import { appStore, type AppStore } from '../state/store';
import { api, ApiError, ApiErrorCode, newOperationId, type Envelope } from './client';
import { currentLanguage } from '../i18n';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from './storage';
import {
  ChatSocket,
  defaultSocketConfig,
  type ConnectionState,
  type SocketEnvironment,
} from './socket/socket';
import type {
  AdvancedMessages,
  AtUserInfo,
  BlackUserItem,
  CardElem,
  ConversationItem,
  FileElem,
  FriendApplicationItem,
  FullUserItem,
  GroupApplicationItem,
  GroupItem,
  GroupMemberItem,
  MessageItem,
  MessageReaction,
  PictureInfo,
  PushEventName,
  PushEvents,
  SearchMessagesResult,
  SelfUserInfo,
  SoundElem,
  UserStatus,
  VideoElem,
} from './socket/types';

export type { ConnectionState } from './socket/socket';

function socketURL(): string {
  const configured = import.meta.env.VITE_WS_URL?.trim();
  if (configured) return configured;
  if (typeof window === 'undefined') return 'ws://127.0.0.1:8080/ws';
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws`;
}

export const browserSocketEnvironment: SocketEnvironment = {
  open: (url) => new WebSocket(url),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => {
    window.clearTimeout(id);
  },
  now: () => Date.now(),
  online: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
  operationId: newOperationId,
};

/** The app's chat socket. */
export const chatSocket = new ChatSocket({ ...defaultSocketConfig, url: socketURL() }, browserSocketEnvironment);

/** The connection state for screens: connecting / connected / kicked offline / token expired. */
export const chatConnectionAtom = atom<ConnectionState>('idle');

/** True while connecting again after having been connected (the banner says "reconnecting"). */
export const chatReconnectingAtom = atom(false);

/**
 * Set when the server ended this session (kicked offline, token expired) and the stored
 * session was dropped; the shell tells the user and opens the sign-in page, then clears it.
 */
export const chatSessionEndedAtom = atom<'kicked' | 'deviceLimit' | 'expired' | null>(null);

let sessionSync: (() => void) | null = null;

/** The chat token a switch of account is ending on purpose (see `replacingChatSession`). */
let replacedChatToken = '';

/**
 * Runs a switch of account (/accountLoginAtm ends the session being left, and the server
 * tells that session's socket its token expired). While it runs, the end of the current chat
 * session is expected and does not sign anybody out; once the next session is stored the
 * socket moves to it.
 */
export async function replacingChatSession<T>(
  work: () => Promise<T>,
  socket: ChatSocket = chatSocket,
  store: KeyValueStore = browserStore,
  jotai: AppStore = appStore,
): Promise<T> {
  replacedChatToken = store.get(STORAGE_KEYS.wsToken) ?? '';
  try {
    return await work();
  } finally {
    replacedChatToken = '';
    // The switch failed after the server had ended the session anyway: end it here too.
    endIfSessionEnded(socket, store, jotai);
  }
}

/** Drops the stored session when the socket's session ended on the server and is still the stored one. */
function endIfSessionEnded(socket: ChatSocket, store: KeyValueStore, jotai: AppStore): void {
  const state = socket.state;
  if (state !== 'kicked' && state !== 'expired') return;
  const token = socket.token;
  if (token === '' || token === replacedChatToken) return;
  if (store.get(STORAGE_KEYS.wsToken) !== token) return;
  // Read before the session is dropped: dropping it stops the socket, which forgets why it ended.
  const ended = socket.kickedByDeviceLimit ? 'deviceLimit' : state;
  endSessionLocally(store);
  jotai.set(chatSessionEndedAtom, ended);
}

/**
 * Starts keeping the socket in step with the stored session (once; later calls do nothing).
 * The first chat call starts it too, so a screen's first query never races the shell.
 */
export function startChatSession(): void {
  sessionSync ??= syncChatSession();
}

function request<T>(name: string, ...args: unknown[]): Promise<T> {
  startChatSession();
  return chatSocket.request<T>(name, args);
}

/** Fields of a group that SetGroupInfo / CreateGroup take. */
export interface GroupInfoInput {
  groupName?: string;
  notification?: string;
  introduction?: string;
  faceURL?: string;
  groupType?: number;
  needVerification?: number;
}

export interface HistoryParams {
  conversationID: string;
  startClientMsgID?: string;
  count: number;
  lastMinSeq?: number;
}

/** Typed calls of the chat socket. Every call rejects with a ChatRequestError. */
export const chat = {
  on<E extends PushEventName>(event: E, handler: (data: PushEvents[E]) => void): () => void {
    return chatSocket.on(event, handler);
  },

  // Users
  getSelfUserInfo: () => request<SelfUserInfo>('GetSelfUserInfo'),
  getUsersInfo: (userIDs: string[], groupID = '') =>
    request<FullUserItem[] | null>('GetUsersInfoWithCache', userIDs, groupID).then((list) => list ?? []),
  getLoginStatus: () => request<number>('GetLoginStatus'),

  // Presence: watch friends and chat peers; kj's own calls hide one's own.
  subscribeUsersStatus: (userIDs: string[]) =>
    request<UserStatus[] | null>('SubscribeUsersStatus', userIDs).then((list) => list ?? []),
  unsubscribeUsersStatus: (userIDs: string[]) => request<null>('UnsubscribeUsersStatus', userIDs),
  getPresenceHidden: () => request<boolean>('GetPresenceHidden'),
  setPresenceHidden: (hidden: boolean) => request<null>('SetPresenceHidden', hidden),

  // Conversations
  getAllConversationList: () =>
    request<ConversationItem[] | null>('GetAllConversationList').then((list) => list ?? []),
  getOneConversation: (sessionType: number, sourceID: string) =>
    request<ConversationItem>('GetOneConversation', sessionType, sourceID),
  getMultipleConversation: (conversationIDs: string[]) =>
    request<ConversationItem[] | null>('GetMultipleConversation', conversationIDs).then((list) => list ?? []),
  getTotalUnreadMsgCount: () => request<number>('GetTotalUnreadMsgCount'),
  markConversationMessageAsRead: (conversationID: string) =>
    request<null>('MarkConversationMessageAsRead', conversationID),
  setConversationDraft: (conversationID: string, draftText: string) =>
    request<null>('SetConversationDraft', conversationID, draftText),
  pinConversation: (conversationID: string, isPinned: boolean) =>
    request<null>('PinConversation', conversationID, isPinned),
  /** opt: RecvMsgOpt (2 is do not disturb). */
  setConversationRecvMessageOpt: (conversationID: string, opt: number) =>
    request<null>('SetConversationRecvMessageOpt', conversationID, opt),
  /** Clears the history for me; the conversation stays in the list, empty. */
  clearConversationAndDeleteAllMsg: (conversationID: string) =>
    request<null>('ClearConversationAndDeleteAllMsg', conversationID),
  deleteConversationAndDeleteAllMsg: (conversationID: string) =>
    request<null>('DeleteConversationAndDeleteAllMsg', conversationID),

  // Friends and blacklist
  getFriendList: () => request<FullUserItem[] | null>('GetFriendList').then((list) => list ?? []),
  addFriend: (toUserID: string, reqMsg: string) => request<null>('AddFriend', { toUserID, reqMsg }),
  getFriendApplicationListAsRecipient: () =>
    request<FriendApplicationItem[] | null>('GetFriendApplicationListAsRecipient').then((list) => list ?? []),
  getFriendApplicationListAsApplicant: () =>
    request<FriendApplicationItem[] | null>('GetFriendApplicationListAsApplicant').then((list) => list ?? []),
  acceptFriendApplication: (toUserID: string, handleMsg = '') =>
    request<null>('AcceptFriendApplication', { toUserID, handleMsg }),
  refuseFriendApplication: (toUserID: string, handleMsg = '') =>
    request<null>('RefuseFriendApplication', { toUserID, handleMsg }),
  deleteFriend: (userID: string) => request<null>('DeleteFriend', userID),
  setFriendRemark: (toUserID: string, remark: string) => request<null>('SetFriendRemark', { toUserID, remark }),
  searchFriends: (keyword: string) =>
    request<FullUserItem['friendInfo'][] | null>('SearchFriends', {
      keywordList: [keyword],
      isSearchUserID: true,
      isSearchNickname: true,
      isSearchRemark: true,
    }).then((list) => (list ?? []).filter((f): f is NonNullable<typeof f> => f !== null)),
  addBlack: (toUserID: string) => request<null>('AddBlack', toUserID, ''),
  removeBlack: (userID: string) => request<null>('RemoveBlack', userID),
  getBlackList: () => request<BlackUserItem[] | null>('GetBlackList').then((list) => list ?? []),

  // Groups and channels
  createGroup: (groupInfo: GroupInfoInput, memberUserIDs: string[]) =>
    request<GroupItem>('CreateGroup', { memberUserIDs, adminUserIDs: [], groupInfo }),
  joinGroup: (groupID: string, reqMsg: string) => request<null>('JoinGroup', groupID, reqMsg, 3, ''),
  inviteUserToGroup: (groupID: string, userIDList: string[], reason = '') =>
    request<null>('InviteUserToGroup', groupID, reason, userIDList),
  quitGroup: (groupID: string) => request<null>('QuitGroup', groupID),
  dismissGroup: (groupID: string) => request<null>('DismissGroup', groupID),
  getJoinedGroupList: () => request<GroupItem[] | null>('GetJoinedGroupList').then((list) => list ?? []),
  getSpecifiedGroupsInfo: (groupIDs: string[]) =>
    request<GroupItem[] | null>('GetSpecifiedGroupsInfo', groupIDs).then((list) => list ?? []),
  setGroupInfo: (groupID: string, info: GroupInfoInput) => request<null>('SetGroupInfo', { ...info, groupID }),
  getGroupMemberList: (groupID: string, offset = 0, count = 2000) =>
    request<GroupMemberItem[] | null>('GetGroupMemberList', groupID, 0, offset, count).then((list) => list ?? []),
  getGroupApplicationListAsRecipient: () =>
    request<GroupApplicationItem[] | null>('GetGroupApplicationListAsRecipient').then((list) => list ?? []),
  getGroupApplicationListAsApplicant: () =>
    request<GroupApplicationItem[] | null>('GetGroupApplicationListAsApplicant').then((list) => list ?? []),
  acceptGroupApplication: (groupID: string, fromUserID: string, handleMsg = '') =>
    request<null>('AcceptGroupApplication', groupID, fromUserID, handleMsg),
  refuseGroupApplication: (groupID: string, fromUserID: string, handleMsg = '') =>
    request<null>('RefuseGroupApplication', groupID, fromUserID, handleMsg),
  kickGroupMember: (groupID: string, userIDList: string[], reason = '') =>
    request<null>('KickGroupMember', groupID, reason, userIDList),
  changeGroupMemberMute: (groupID: string, userID: string, mutedSeconds: number) =>
    request<null>('ChangeGroupMemberMute', groupID, userID, mutedSeconds),
  changeGroupMute: (groupID: string, isMute: boolean) => request<null>('ChangeGroupMute', groupID, isMute),
  transferGroupOwner: (groupID: string, newOwnerUserID: string) =>
    request<null>('TransferGroupOwner', groupID, newOwnerUserID),
  setGroupMemberRole: (groupID: string, userID: string, roleLevel: number) =>
    request<null>('SetGroupMemberInfo', { groupID, userID, roleLevel }),
  searchGroups: (keyword: string) =>
    request<GroupItem[] | null>('SearchGroups', {
      keywordList: [keyword],
      isSearchGroupID: true,
      isSearchGroupName: true,
    }).then((list) => list ?? []),

  // Messages: the server builds a message, the client sends it.
  createTextMessage: (text: string) => request<MessageItem>('CreateTextMessage', text),
  /** A group message naming members (atUserIDList; "AtAllTag" for everyone, owners and admins only). */
  createTextAtMessage: (text: string, atUserIDList: string[], atUsersInfo: AtUserInfo[]) =>
    request<MessageItem>('CreateTextAtMessage', text, atUserIDList, atUsersInfo, ''),
  /** Text messages holding the keyword in every conversation of the caller, newest first, page by page (from 1). */
  searchMessages: (keyword: string, pageIndex: number, count: number) =>
    request<SearchMessagesResult>('SearchLocalMessages', {
      conversationID: '',
      keywordList: [keyword],
      keywordListMatchType: 0,
      senderUserIDList: [],
      messageTypeList: [],
      searchTimePosition: 0,
      searchTimePeriod: 0,
      pageIndex,
      count,
    }),
  createImageMessageByURL: (picture: PictureInfo, snapshot: PictureInfo | null = null) =>
    request<MessageItem>('CreateImageMessageByURL', '', picture, picture, snapshot ?? picture),
  createSoundMessageByURL: (elem: SoundElem) => request<MessageItem>('CreateSoundMessageByURL', elem),
  createVideoMessageByURL: (elem: VideoElem) => request<MessageItem>('CreateVideoMessageByURL', elem),
  createFileMessageByURL: (elem: FileElem) => request<MessageItem>('CreateFileMessageByURL', elem),
  createMergerMessage: (messageList: MessageItem[], title: string, summaryList: string[]) =>
    request<MessageItem>('CreateMergerMessage', messageList, title, summaryList),
  createForwardMessage: (message: MessageItem) => request<MessageItem>('CreateForwardMessage', message),
  createLocationMessage: (description: string, longitude: number, latitude: number) =>
    request<MessageItem>('CreateLocationMessage', description, longitude, latitude),
  createQuoteMessage: (text: string, message: MessageItem) => request<MessageItem>('CreateQuoteMessage', text, message),
  createCardMessage: (card: Omit<CardElem, 'ex'> & { ex?: string }) =>
    request<MessageItem>('CreateCardMessage', { ex: '', ...card }),
  createCustomMessage: (data: string, extension = '', description = '') =>
    request<MessageItem>('CreateCustomMessage', data, extension, description),
  createFaceMessage: (index: number, data: string) => request<MessageItem>('CreateFaceMessage', index, data),
  /** Sends a built message to a user (recvID) or a group (groupID); resolves with the stored one. */
  sendMessage: ({ message, recvID = '', groupID = '' }: { message: MessageItem; recvID?: string; groupID?: string }) =>
    request<MessageItem>('SendMessage', message, recvID, groupID, { title: '', desc: '', ex: '' }, false),
  revokeMessage: (conversationID: string, clientMsgID: string) =>
    request<null>('RevokeMessage', conversationID, clientMsgID),
  deleteMessage: (conversationID: string, clientMsgID: string) =>
    request<null>('DeleteMessage', conversationID, clientMsgID),
  /** kj's: adds (or takes back) the caller's reaction; resolves with the message's reactions after it. */
  addMessageReaction: (conversationID: string, clientMsgID: string, emoji: string) =>
    request<MessageReaction[]>('AddMessageReaction', conversationID, clientMsgID, emoji),
  deleteMessageReaction: (conversationID: string, clientMsgID: string, emoji: string) =>
    request<MessageReaction[]>('DeleteMessageReaction', conversationID, clientMsgID, emoji),
  /** kj's: replaces the text of one's own text message (within KJ_CHAT_EDIT_WINDOW); resolves with it. */
  editMessage: (conversationID: string, clientMsgID: string, text: string) =>
    request<MessageItem>('EditMessage', conversationID, clientMsgID, text),
  typingStatusUpdate: (recvID: string, msgTip: string) => request<null>('TypingStatusUpdate', recvID, msgTip),
  /** The newest `count` messages before startClientMsgID / lastMinSeq (or the end), ascending. */
  getAdvancedHistoryMessageList: (params: HistoryParams) =>
    request<AdvancedMessages>('GetAdvancedHistoryMessageList', {
      startClientMsgID: '',
      lastMinSeq: 0,
      ...params,
    }),
  /** The oldest `count` messages after lastMinSeq, ascending: the catch-up after a reconnect. */
  getAdvancedHistoryMessageListReverse: (params: HistoryParams) =>
    request<AdvancedMessages>('GetAdvancedHistoryMessageListReverse', {
      startClientMsgID: '',
      lastMinSeq: 0,
      ...params,
    }),
};

export type ChatApi = typeof chat;

function decodeBusinessData(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // not JSON: handed over as the text it is
  }
}

/** Listens to one business push key (`OnRecvCustomBusinessMessage` with data {"key","data"}). */
export function onBusinessPush(
  key: string,
  handler: (data: unknown, raw: string) => void,
  socket: ChatSocket = chatSocket,
): () => void {
  return socket.on('OnRecvCustomBusinessMessage', (notification) => {
    if (notification.key !== key) return;
    handler(decodeBusinessData(notification.data), notification.data);
  });
}

/** Listens to every business push, whatever its key (for areas that dispatch by key). */
export function onAnyBusinessPush(
  handler: (key: string, data: unknown, raw: string) => void,
  socket: ChatSocket = chatSocket,
): () => void {
  return socket.on('OnRecvCustomBusinessMessage', (notification) => {
    handler(notification.key, decodeBusinessData(notification.data), notification.data);
  });
}

/**
 * Keeps the socket in step with the stored session: connected while access_token, wsToken
 * and userId are stored, reconnected with new ones when they change, signed out when they go.
 * The connection state is mirrored into `chatConnectionAtom`. Returns the stop function.
 */
export function syncChatSession(
  socket: ChatSocket = chatSocket,
  store: KeyValueStore = browserStore,
  jotai: AppStore = appStore,
): () => void {
  const apply = (): void => {
    const token = store.get(STORAGE_KEYS.token);
    const chatToken = store.get(STORAGE_KEYS.wsToken);
    const userID = store.get(STORAGE_KEYS.userId);
    if (token && chatToken && userID) socket.start({ userID, token: chatToken });
    else if (socket.state !== 'idle') socket.stop();
  };
  const mirror = (state: ConnectionState): void => {
    jotai.set(chatConnectionAtom, state);
    jotai.set(chatReconnectingAtom, state === 'connecting' && socket.connectedBefore);
    // Decided here, in the socket's own callback, while the socket still holds the token that
    // ended: a screen's effect would run later, when a switch may already have stored the
    // next account's session, and would sign that one out.
    endIfSessionEnded(socket, store, jotai);
  };
  const offState = socket.onStateChange(mirror);
  mirror(socket.state);
  apply();
  const offStore = store.subscribe(apply);
  const online = (): void => {
    socket.nudge();
  };
  window.addEventListener('online', online);
  return () => {
    offState();
    offStore();
    window.removeEventListener('online', online);
  };
}

/**
 * Kicked offline or chat token expired: the sign-in already ended on the server, so the
 * session is forgotten here without a /logout call (it would only be refused).
 */
export function endSessionLocally(store: KeyValueStore = browserStore): void {
  for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.jwt, STORAGE_KEYS.wsToken, STORAGE_KEYS.userId]) store.remove(key);
}

// HTTP routes of the chat area.

export interface FoundUser {
  userID: string;
  nickname: string;
  faceURL: string;
}

/** POST /openIm/getUserByNick: users whose nickname contains `nickname` (exact first). */
export function getUserByNick(nickname: string): Promise<FoundUser[]> {
  return api
    .request<FoundUser[] | null>('/openIm/getUserByNick', { nickname }, { quiet: true })
    .then((list) => list ?? []);
}

/** POST /openIm/getGroupByName: live groups and channels by name. */
export function getGroupByName(groupName: string): Promise<GroupItem[]> {
  return api
    .request<GroupItem[] | null>('/openIm/getGroupByName', { groupName }, { quiet: true })
    .then((list) => list ?? []);
}

/** POST /user/getUserGroups: my groups (2), channels (3) or both (0). */
export function getUserGroups(groupType: number): Promise<GroupItem[]> {
  return api.request<GroupItem[] | null>('/user/getUserGroups', { groupType }, { quiet: true }).then((list) => list ?? []);
}

export type UploadKind = 'image' | 'sound' | 'video' | 'file';

export interface UploadedFile {
  url: string;
  name: string;
  size: number;
  contentType: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function postUpload(file: Blob, kind: UploadKind, name: string): Promise<Envelope<unknown>> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file, name);
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  const token = browserStore.get(STORAGE_KEYS.token);
  if (token) headers.token = token;
  let response: Response;
  try {
    response = await fetch(`${api.currentHost()}/chat/upload`, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
  } catch {
    return { code: ApiErrorCode.network, message: '', data: null };
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  if (isRecord(parsed) && typeof parsed.code === 'number') {
    return { code: parsed.code, message: typeof parsed.message === 'string' ? parsed.message : '', data: parsed.data };
  }
  return { code: response.status === 401 ? 401 : ApiErrorCode.badResponse, message: '', data: null };
}

/**
 * POST /chat/upload (multipart): stores a file for a chat message and answers its URL, which
 * the Create*MessageByURL calls accept. A 401 renews the session through the API client once.
 */
export async function uploadChatFile(file: Blob, kind: UploadKind, name = 'file'): Promise<UploadedFile> {
  let answer = await postUpload(file, kind, name);
  if (answer.code === 401) {
    // Any authenticated call makes the client renew the token (single flight) or sign out.
    await api.request('/user/mine', {}, { quiet: true });
    answer = await postUpload(file, kind, name);
  }
  if (answer.code !== 0 || !isRecord(answer.data) || typeof answer.data.url !== 'string') {
    throw new ApiError(answer.code === 0 ? ApiErrorCode.badResponse : answer.code, answer.message);
  }
  const data = answer.data;
  return {
    url: data.url as string,
    name: typeof data.name === 'string' ? data.name : name,
    size: typeof data.size === 'number' ? data.size : file.size,
    contentType: typeof data.contentType === 'string' ? data.contentType : file.type,
  };
}

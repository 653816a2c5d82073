/** Routes of the chat area (/pages/chat/... and the system pages). */
export const CHAT_PATHS = {
  search: '/pages/chat/search',
  conversation: '/pages/chat/conversation',
  conversationSettings: '/pages/chat/conversation-settings',
  forward: '/pages/chat/forward',
  contacts: '/pages/chat/contacts',
  addFriend: '/pages/chat/add-friend',
  groupList: '/pages/chat/group-list',
  group: '/pages/chat/group',
  groupEdit: '/pages/chat/group-edit',
  userInfo: '/pages/chat/user-info',
  friendVerify: '/pages/chat/friend-verify',
  newFriend: '/pages/chat/new-friend',
  newGroup: '/pages/chat/new-group',
  groupInfo: '/pages/chat/group-info',
  previewImage: '/preview-image',
  chooseLocation: '/choose-location',
  openLocation: '/open-location',
} as const;

function withQuery(path: string, query: Record<string, string | number>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `${path}?${params.toString()}`;
}

export const conversationPath = (conversationID: string) => withQuery(CHAT_PATHS.conversation, { conversationID });
export const conversationSettingsPath = (conversationID: string) =>
  withQuery(CHAT_PATHS.conversationSettings, { conversationID });
export const userInfoPath = (userID: string) => withQuery(CHAT_PATHS.userInfo, { userID });
export const friendVerifyPath = (userID: string) => withQuery(CHAT_PATHS.friendVerify, { userID });
export const groupInfoPath = (groupID: string) => withQuery(CHAT_PATHS.groupInfo, { groupID });
export const groupEditPath = (groupID: string, field: 'name' | 'notice') =>
  withQuery(CHAT_PATHS.groupEdit, { groupID, field });
/** type 2: group chats, 3: channels. */
export const groupListPath = (type: number) => withQuery(CHAT_PATHS.groupList, { type });
export const createGroupPath = (type: number) => withQuery(CHAT_PATHS.group, { type });
export const previewImagePath = (url: string) => withQuery(CHAT_PATHS.previewImage, { url });
export const openLocationPath = (latitude: number, longitude: number, name: string) =>
  withQuery(CHAT_PATHS.openLocation, { latitude, longitude, name });
export const chooseLocationPath = (conversationID: string) =>
  withQuery(CHAT_PATHS.chooseLocation, { conversationID });

/** The link another user opens (or scans) to see my profile and add me. */
export function friendLinkOf(userID: string, origin: string = window.location.origin): string {
  return `${origin}${userInfoPath(userID)}`;
}

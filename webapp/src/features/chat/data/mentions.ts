/**
 * @mentions in group messages: finding the "@" being typed, the member picker's choices,
 * what a sent message names (AtText: atUserList + atUsersInfo), and the parts of a received
 * text that are mentions (highlighted in the bubble).
 */
import type { AtUserInfo, GroupMemberItem } from '../../../api/socket/types';

/** The member id an "@all" carries (the SDK's AtAllTag). */
export const AT_ALL = 'AtAllTag';

/** groupAtType of a conversation (the SDK's GroupAtType). */
export const GroupAtType = { none: 0, atMe: 1, atAll: 2, atAllAtMe: 3 } as const;

/** Someone (or everyone) was mentioned: the list shows "[@you]" until the chat is read. */
export function mentionsMe(groupAtType: number): boolean {
  return groupAtType === GroupAtType.atMe || groupAtType === GroupAtType.atAllAtMe;
}

/** A member named in the message being written. */
export interface MentionTarget {
  userID: string;
  name: string;
}

/**
 * The "@" being typed at the caret: where it starts and the words after it, or null when the
 * caret is not in a mention (an "@" inside a word, like an e-mail address, is none).
 */
export function activeMention(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before.charAt(at - 1))) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query) || query.length > 20) return null;
  return { start: at, query };
}

/** The name a member is mentioned by: the group nickname, else the account's. */
export function memberName(m: Pick<GroupMemberItem, 'nickname' | 'userID'>): string {
  return m.nickname || m.userID;
}

/** Members matching the query (by name or id, case-insensitive), oneself left out. */
export function pickable(members: readonly GroupMemberItem[], query: string, me: string): GroupMemberItem[] {
  const q = query.toLowerCase();
  return members.filter(
    (m) => m.userID !== me && (memberName(m).toLowerCase().includes(q) || m.userID.includes(q)),
  );
}

/** Replaces the "@query" typed at [start, caret) by "@name " and returns the text and caret after it. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The picked members still named in the text (a removed "@name" mentions nobody), once each. */
export function mentionsIn(text: string, picked: readonly MentionTarget[]): MentionTarget[] {
  const seen = new Set<string>();
  return picked.filter((p) => {
    if (seen.has(p.userID) || !text.includes(`@${p.name}`)) return false;
    seen.add(p.userID);
    return true;
  });
}

/** atUserIDList and atUsersInfo of the AtText message for the targets. */
export function atArguments(targets: readonly MentionTarget[]): { ids: string[]; info: AtUserInfo[] } {
  return {
    ids: targets.map((t) => t.userID),
    info: targets.map((t) => ({ atUserID: t.userID, groupNickname: t.name })),
  };
}

export interface TextPart {
  text: string;
  /** The part names a member (or everyone); self: it names the reader. */
  mention?: { self: boolean };
}

/**
 * Splits an @message's text into plain parts and the "@name" parts of the members it names
 * (from atUsersInfo; "@all" names the reader too). The longest name wins where two overlap.
 */
export function mentionParts(
  text: string,
  info: readonly AtUserInfo[] | null | undefined,
  atUserList: readonly string[] | null | undefined,
  me: string,
): TextPart[] {
  const ids = new Set(atUserList ?? []);
  const names = (info ?? [])
    .filter((i) => i.groupNickname && ids.has(i.atUserID))
    .map((i) => ({ token: `@${i.groupNickname}`, self: i.atUserID === me || i.atUserID === AT_ALL }))
    .sort((a, b) => b.token.length - a.token.length);
  const parts: TextPart[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const hit = text.charAt(i) === '@' ? names.find((n) => text.startsWith(n.token, i)) : undefined;
    if (hit) {
      if (plain) parts.push({ text: plain });
      plain = '';
      parts.push({ text: hit.token, mention: { self: hit.self } });
      i += hit.token.length;
    } else {
      plain += text.charAt(i);
      i += 1;
    }
  }
  if (plain) parts.push({ text: plain });
  return parts;
}

/**
 * The class of a mention in a bubble. In one's own (blue) bubble a mention keeps the bubble's
 * text colour, underlined: the link blue of other bubbles would be blue on blue. In someone
 * else's bubble the reader's own name is marked apart from the others.
 */
export function mentionClass(self: boolean, onMine: boolean): string {
  if (onMine) return 'msg-mention msg-mention--on-mine';
  return self ? 'msg-mention msg-mention--self' : 'msg-mention';
}

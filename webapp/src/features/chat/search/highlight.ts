/** Search results: where the words searched for are in a text, and messages grouped by chat. */
import type { MessageItem, SearchResultItem } from '../../../api/socket/types';

export interface HighlightPart {
  text: string;
  hit: boolean;
}

/** Splits text around each occurrence of the keyword (ignoring case) for highlighting. */
export function highlightParts(text: string, keyword: string): HighlightPart[] {
  const k = keyword.trim().toLowerCase();
  if (!k) return text ? [{ text, hit: false }] : [];
  const lower = text.toLowerCase();
  const parts: HighlightPart[] = [];
  let from = 0;
  for (let at = lower.indexOf(k); at >= 0; at = lower.indexOf(k, at + k.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), hit: false });
    parts.push({ text: text.slice(at, at + k.length), hit: true });
    from = at + k.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), hit: false });
  return parts;
}

/**
 * A stretch of text around the first match, so a long message shows the words found: up to
 * `before` characters ahead of it, marked with an ellipsis where cut.
 */
export function aroundMatch(text: string, keyword: string, before = 16): string {
  const at = text.toLowerCase().indexOf(keyword.trim().toLowerCase());
  if (at <= before) return text;
  return `…${text.slice(at - before)}`;
}

export interface ConversationMatches {
  conversationID: string;
  showName: string;
  faceURL: string;
  isGroup: boolean;
  messages: MessageItem[];
}

/**
 * The pages of a message search merged per conversation, in the order each conversation
 * first appears (its newest match first); a message seen on two pages counts once.
 */
export function groupMatches(pages: readonly (readonly SearchResultItem[])[]): ConversationMatches[] {
  const out: ConversationMatches[] = [];
  const byID = new Map<string, ConversationMatches>();
  const seen = new Set<string>();
  for (const items of pages) {
    for (const item of items) {
      let group = byID.get(item.conversationID);
      if (!group) {
        group = {
          conversationID: item.conversationID,
          showName: item.showName,
          faceURL: item.faceURL,
          isGroup: item.conversationType === 3,
          messages: [],
        };
        byID.set(item.conversationID, group);
        out.push(group);
      }
      for (const m of item.messageList) {
        const key = `${item.conversationID}/${m.clientMsgID}`;
        if (seen.has(key)) continue;
        seen.add(key);
        group.messages.push(m);
      }
    }
  }
  return out;
}

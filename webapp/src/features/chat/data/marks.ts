/**
 * Reactions and edits (PROTOCOL.md "Reactions and edits"): each arrives as a notice with its own
 * seq (2901, 2902) naming the message it changes. History pages come with the current state
 * folded into the messages, so a notice is applied only when it is newer than what its target
 * already shows: `markSeq` is the seq the target's reactions and text are known as of.
 */
import { ContentType, type EditNotice, type MessageItem, type ReactionNotice } from '../../../api/socket/types';

/** A message with the seq its reactions and text are current as of (this client only). */
export type Marked = MessageItem & { markSeq?: number };

export function isMarkNotice(m: Pick<MessageItem, 'contentType'>): boolean {
  return m.contentType === ContentType.reaction || m.contentType === ContentType.edit;
}

/** The notice's detail, parsed (null when it is not JSON); callers say what shape they read. */
function detailOf(m: MessageItem): unknown {
  try {
    return JSON.parse(m.notificationElem?.detail ?? '') as unknown;
  } catch {
    return null;
  }
}

/** The clientMsgID of the message a reaction or edit notice changes. */
export function markTarget(m: MessageItem): string | null {
  return (detailOf(m) as { clientMsgID?: string } | null)?.clientMsgID ?? null;
}

/** `target` as changed by the notice `m` (a newer one only; an older one is already in it). */
export function applyMark<T extends Marked>(target: T, m: MessageItem): T {
  if (m.seq <= (target.markSeq ?? 0)) return target;
  if (m.contentType === ContentType.reaction) {
    const d = detailOf(m) as ReactionNotice | null;
    if (!d) return target;
    return { ...target, reactions: d.reactions, markSeq: m.seq };
  }
  const d = detailOf(m) as EditNotice | null;
  if (!d || !target.textElem) return target;
  return {
    ...target,
    textElem: d.textElem,
    content: JSON.stringify(d.textElem),
    editTime: d.editTime,
    markSeq: m.seq,
  };
}

/**
 * Folds the incoming batch into `byID` (already merged): its stored messages came with their
 * state as of the newest seq of the batch, and its notices, in seq order, change the messages
 * held before it.
 */
export function foldMarks<T extends Marked>(byID: Map<string, T>, incoming: readonly MessageItem[]): void {
  let top = 0;
  for (const m of incoming) if (m.seq > top) top = m.seq;
  for (const m of incoming) {
    if (m.seq <= 0 || isMarkNotice(m)) continue;
    const held = byID.get(m.clientMsgID);
    if (held && (held.markSeq ?? 0) < top) byID.set(m.clientMsgID, { ...held, markSeq: top });
  }
  const notices = incoming.filter(isMarkNotice).sort((a, b) => a.seq - b.seq);
  for (const n of notices) {
    const id = markTarget(n);
    const target = id ? byID.get(id) : undefined;
    if (id && target) byID.set(id, applyMark(target, n));
  }
}

/** Whether the user may still offer to edit a message (the server has the last word). */
export const EDIT_WINDOW_MS = 15 * 60_000;

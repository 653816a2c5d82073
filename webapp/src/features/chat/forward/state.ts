import { atom } from 'jotai';
import type { MessageItem } from '../../../api/socket/types';

/** What the forward page sends: the messages one by one, or merged into one chat history. */
export interface ForwardDraft {
  messages: MessageItem[];
  merge: boolean;
  /** Title of a merged history ("Chat history of X"). */
  title: string;
}

export const forwardDraftAtom = atom<ForwardDraft | null>(null);

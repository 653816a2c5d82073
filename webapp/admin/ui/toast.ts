import { atom } from 'jotai';
import { store } from '../state/session';

export interface Toast {
  id: number;
  text: string;
  error: boolean;
}

export const toastAtom = atom<Toast | null>(null);
let next = 1;

/** Shows a short message at the bottom right for three seconds. */
export function showToast(text: string, error = false): void {
  const id = next++;
  store.set(toastAtom, { id, text, error });
  setTimeout(() => {
    if (store.get(toastAtom)?.id === id) store.set(toastAtom, null);
  }, 3000);
}

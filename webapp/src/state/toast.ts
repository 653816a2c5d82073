import { atom } from 'jotai';
import { appStore, type AppStore } from './store';

export const TOAST_DURATION_MS = 1500;

export interface ToastMessage {
  /** Changes on every toast, so the same text shown twice restarts the timer. */
  id: number;
  text: string;
}

export const toastAtom = atom<ToastMessage | null>(null);

let nextId = 1;

export function showToast(text: string, store: AppStore = appStore): void {
  if (!text) return;
  store.set(toastAtom, { id: nextId++, text });
}

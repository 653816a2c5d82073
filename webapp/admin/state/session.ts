/**
 * The operator's session, kept in localStorage under its own key so the players' app in the
 * same browser neither sees nor replaces it. A jotai atom mirrors it for the screens.
 */
import { atom, createStore } from 'jotai';

export type Role = 'admin' | 'agent';

export interface OperatorSession {
  token: string;
  jwt: string;
  userId: string;
  account: string;
  role: Role;
}

const KEY = 'kj.admin.session';

function load(): OperatorSession | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<OperatorSession>;
    if (typeof s.token !== 'string' || typeof s.jwt !== 'string' || typeof s.userId !== 'string') return null;
    return { token: s.token, jwt: s.jwt, userId: s.userId, account: s.account ?? '', role: s.role === 'admin' ? 'admin' : 'agent' };
  } catch {
    return null;
  }
}

export const store = createStore();
export const sessionAtom = atom<OperatorSession | null>(load());

export function readSession(): OperatorSession | null {
  return store.get(sessionAtom);
}

export function writeSession(s: OperatorSession): void {
  localStorage.setItem(KEY, JSON.stringify(s));
  store.set(sessionAtom, s);
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
  store.set(sessionAtom, null);
}

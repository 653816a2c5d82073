import { writeSession, type OperatorSession, type Role } from '../state/session';
import { ADMIN_PLATFORM, api, operationId } from './client';

/** Raised when the account signed in but is not an operator (its session is ended again). */
export class NotOperatorError extends Error {}

interface LoginData {
  token: string;
  jwt: string;
  userId: string;
}

interface Mine {
  isOperator: number;
}

interface Me {
  role: Role;
}

/**
 * Signs an operator in with the players' sign-in route on the admin platform, then asks the
 * server who it is: an account without operator rights is signed out again at once.
 */
export async function signIn(account: string, password: string): Promise<OperatorSession> {
  const login = await api<LoginData>('/accountLogin', { account, password, platform: ADMIN_PLATFORM, operationID: operationId() });
  const mine = await api<Mine>('/user/mine', {}, login.token);
  if (mine.isOperator !== 1) {
    await api('/logout', {}, login.token).catch(() => undefined);
    throw new NotOperatorError();
  }
  const { role } = await api<Me>('/admin/me', {}, login.token);
  // Kept only now, with its role: a reload in between finds no half-made session.
  const session: OperatorSession = { token: login.token, jwt: login.jwt, userId: login.userId, account, role };
  writeSession(session);
  return session;
}

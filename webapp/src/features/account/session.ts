/**
 * Signing in, registering, switching account and signing out. Each drops the query cache, so
 * nothing of one account is ever shown to another, and records the account for the switch
 * account screen.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { accountsApi, type RegisterInput } from '../../api/accounts';
import { replacingChatSession } from '../../api/chat';
import { api, type LoginInput, type LoginResult } from '../../api/client';
import { userInfoQuery } from './queries';

async function afterSignIn(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries();
  // Loads the profile (and so the cached-account entry) before the first screen shows.
  try {
    await queryClient.query(userInfoQuery);
  } catch {
    // The screens load it again and show their own error state.
  }
}

export function useAccountActions() {
  const queryClient = useQueryClient();

  const signIn = useCallback(
    async (input: LoginInput, { switching = false } = {}): Promise<LoginResult> => {
      const result = switching
        ? await replacingChatSession(() => api.switchAccount(input, { quiet: true }))
        : await api.accountLogin(input, { quiet: true });
      await afterSignIn(queryClient);
      return result;
    },
    [queryClient],
  );

  /** Creates the account, then signs in with it (switching when another one is signed in). */
  const register = useCallback(
    async (input: RegisterInput, { switching = false } = {}): Promise<LoginResult> => {
      await accountsApi.register(input);
      return signIn({ account: input.account, password: input.password }, { switching });
    },
    [signIn],
  );

  const signOut = useCallback(async (): Promise<void> => {
    // /logout ends the chat token on the server, which tells the socket its token expired
    // before the stored session is cleared: that end is the one asked for, not a lapsed sign-in.
    await replacingChatSession(() => api.logout());
    queryClient.removeQueries();
  }, [queryClient]);

  return { signIn, register, signOut };
}

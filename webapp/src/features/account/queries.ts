/**
 * Query keys and query options of the account screens. Everything here belongs to the
 * signed-in user; the whole cache is dropped when the session changes (see session.ts).
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { accountsApi, type UserInfo } from '../../api/accounts';
import { appApi } from '../../api/app';
import { walletApi } from '../../api/wallet';
import { useSession } from '../../state/session';
import { rememberAccount } from './cachedAccounts';

export const queryKeys = {
  user: ['account', 'user'] as const,
  inviteLink: ['account', 'inviteLink'] as const,
  verifyTypes: ['account', 'verifyTypes'] as const,
  registerConfig: ['account', 'registerConfig'] as const,
  manifest: ['app', 'manifest'] as const,
  wallet: ['wallet', 'summary'] as const,
  chainTypes: ['wallet', 'chainTypes'] as const,
  bankCards: ['wallet', 'bankCards'] as const,
  banks: ['wallet', 'banks'] as const,
  records: ['records'] as const,
  notices: ['notices'] as const,
};

/** `/user/mine`; every answer also refreshes this account in the switch-account list. */
export const userInfoQuery = queryOptions({
  queryKey: queryKeys.user,
  queryFn: async ({ signal }): Promise<UserInfo> => {
    const info = await accountsApi.mine({ signal });
    rememberAccount({ id: info.userId, username: info.username, nickName: info.nickName, avatar: info.avatar });
    return info;
  },
});

/**
 * The signed-in user's info (nothing for a guest). `fresh`: refetch on mount, for screens that
 * show counts that change elsewhere (the mine page's unread notices).
 */
export function useUserInfo({ fresh = false } = {}) {
  const { token } = useSession();
  return useQuery({ ...userInfoQuery, enabled: Boolean(token), refetchOnMount: fresh ? 'always' : true });
}

/** A change to the profile the server took: the cached user shows it at once, then is asked again. */
export function patchUserInfo(client: QueryClient, patch: Partial<UserInfo>): void {
  client.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, ...patch } : old));
  void client.invalidateQueries({ queryKey: queryKeys.user });
}

export const walletSummaryQuery = queryOptions({
  queryKey: queryKeys.wallet,
  queryFn: ({ signal }) => walletApi.summary({ signal }),
});

export const verifyTypesQuery = queryOptions({
  queryKey: queryKeys.verifyTypes,
  queryFn: ({ signal }) => accountsApi.verifyTypes({ signal }),
  staleTime: 5 * 60_000,
});

export const registerConfigQuery = queryOptions({
  queryKey: queryKeys.registerConfig,
  queryFn: ({ signal }) => accountsApi.registerConfig({ signal }),
  staleTime: 5 * 60_000,
});

export const bankCardsQuery = queryOptions({
  queryKey: queryKeys.bankCards,
  queryFn: async () => (await walletApi.bankCards()).list,
});

export const banksQuery = queryOptions({
  queryKey: queryKeys.banks,
  queryFn: async () => (await walletApi.banks()).list,
  staleTime: 10 * 60_000,
});

export const chainTypesQuery = queryOptions({
  queryKey: queryKeys.chainTypes,
  queryFn: () => walletApi.chainTypes(),
});

export const inviteLinkQuery = queryOptions({
  queryKey: queryKeys.inviteLink,
  queryFn: () => accountsApi.inviteLink(),
  staleTime: 10 * 60_000,
});

/** The manifest is fetched fresh on every check (quiet: a failed check is not worth a toast). */
export function fetchManifest() {
  return appApi.manifest({ quiet: true });
}

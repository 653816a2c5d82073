import { useInfiniteQuery, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accountsApi } from '../../api/accounts';
import type { RequestOptions } from '../../api/client';
import { contentApi, type ContentPage, type PageRequest, type Video } from '../../api/content';
import { pushHub, type PushHub } from '../../api/pushes';
import { discoverKeys } from '../discover/keys';

export const videoKeys = {
  find: ['content', 'videos', 'find'] as const,
  highlights: ['content', 'videos', 'highlights'] as const,
  allowance: discoverKeys.allowance,
  registerConfig: ['accounts', 'registerConfig'] as const,
  userIndex: ['accounts', 'userIndex'] as const,
};

const PAGE_SIZE = 10;

/** A list of videos, PAGE_SIZE to a page, asked quietly (the list shows its own error). */
function useVideoPages(
  queryKey: QueryKey,
  fetchPage: (page: PageRequest, options: RequestOptions) => Promise<ContentPage<Video>>,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage({ page: pageParam, pageSize: PAGE_SIZE }, { quiet: true }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.pages ? last.page + 1 : undefined),
  });
}

export const useFindVideos = () => useVideoPages(videoKeys.find, contentApi.findVideos);
export const useHighlightVideos = () => useVideoPages(videoKeys.highlights, contentApi.highlightVideos);

export function useVideoAllowance(enabled = true) {
  return useQuery({
    queryKey: videoKeys.allowance,
    queryFn: () => contentApi.checkVideoCount(undefined, { quiet: true }),
    enabled,
    staleTime: 0,
  });
}

/**
 * Whether the video area must ask for an invitation code first: registration requires one
 * (`/register/config`) and this account has no superior bound yet (`/user/index`).
 */
export function useInviteRequired(enabled = true) {
  const config = useQuery({
    queryKey: videoKeys.registerConfig,
    queryFn: () => accountsApi.registerConfig({ quiet: true }),
    enabled,
    staleTime: 300_000,
  });
  const user = useQuery({
    queryKey: videoKeys.userIndex,
    queryFn: () => contentApi.userIndex({ quiet: true }),
    enabled: enabled && config.data?.inviteCodeRequired === true,
    staleTime: 0,
  });
  const required = config.data?.inviteCodeRequired === true && user.data !== undefined && !user.data.superiorBound;
  const pending = config.isPending || (config.data?.inviteCodeRequired === true && user.isPending);
  return { required, pending };
}

/** An operator activating the account (push `userUpdated`) lifts the video limit at once. */
export function useAccountPushes(hub: PushHub = pushHub): void {
  const client = useQueryClient();
  useEffect(() => {
    const refresh = (): void => {
      void client.invalidateQueries({ queryKey: videoKeys.allowance });
      void client.invalidateQueries({ queryKey: videoKeys.userIndex });
    };
    const offs = [hub.on('userUpdated', refresh), hub.onResync(refresh)];
    return () => {
      for (const off of offs) off();
    };
  }, [client, hub]);
}

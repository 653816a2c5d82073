/**
 * Server state of the activation windows through TanStack Query. The countdowns come from
 * the server's deadlines and clock (serverClock); each query asks again right after the
 * deadline it shows, so the page follows betting → drawing → rest from HTTP alone. Pushes of
 * the chat socket (round.phase, round.result, round.settled, balance) make it immediate, and a
 * push resync (after a reconnect), the page becoming visible again and the network coming back
 * reload everything.
 */
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RequestOptions } from '../../api/client';
import { pushHub, type PushHub } from '../../api/pushes';
import { roundsApi, type Lobby, type RoundResult, type WindowNow } from '../../api/rounds';
import { refetchDelay } from './phase';
import { serverClock, timed } from './serverClock';

export const roundsKeys = {
  all: ['rounds'] as const,
  lobby: ['rounds', 'lobby'] as const,
  window: (windowId: number) => ['rounds', 'window', windowId] as const,
  history: (windowId: number) => ['rounds', 'history', windowId] as const,
  rules: ['rounds', 'rules'] as const,
  trend: (windowId: number) => ['rounds', 'trend', windowId] as const,
  fairness: (windowId: number) => ['rounds', 'fairness', windowId] as const,
};

function earliestDeadline(lobby: Lobby | undefined): number | null {
  if (!lobby || lobby.windows.length === 0) return null;
  return Math.min(...lobby.windows.map((w) => w.deadline || Number.MAX_SAFE_INTEGER));
}

/** Windows with phase and deadline, and the caller's available points (signed-in users only). */
export function useLobby(enabled = true) {
  return useQuery({
    queryKey: roundsKeys.lobby,
    queryFn: () => timed(() => roundsApi.lobby({ quiet: true })),
    enabled,
    staleTime: 0,
    refetchInterval: (query) => refetchDelay(earliestDeadline(query.state.data), serverClock.now()),
    refetchIntervalInBackground: false,
  });
}

/** One window's current round, result, next round and the caller's bets in it. */
export function useWindowNow(windowId: number) {
  return useQuery({
    queryKey: roundsKeys.window(windowId),
    queryFn: () => timed(() => roundsApi.current(windowId, { quiet: true })),
    enabled: windowId > 0,
    staleTime: 0,
    refetchInterval: (query) => {
      const data: WindowNow | undefined = query.state.data;
      const round = data?.round;
      if (!round) return 5_000;
      const now = serverClock.now();
      // A bet waiting for its settlement: ask again soon even though the phase has not moved.
      const unsettled = data.myBets.some((b) => !b.matched) && (round.phase === 'rest' || data.result !== null);
      const delay = refetchDelay(round.deadline, now);
      return unsettled ? Math.min(delay, 1_000) : delay;
    },
  });
}

export function useRules() {
  return useQuery({
    queryKey: roundsKeys.rules,
    queryFn: () => roundsApi.rules({ quiet: true }),
    staleTime: 60_000,
  });
}

export function useHistory(windowId: number, enabled = true) {
  return useInfiniteQuery({
    queryKey: roundsKeys.history(windowId),
    queryFn: ({ pageParam }) => roundsApi.history(windowId, pageParam, 20, { quiet: true }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    enabled: enabled && windowId > 0,
    staleTime: 0,
  });
}

/** A report over a window's past rounds, which the server caches per window: fresh for 30 s. */
function useWindowReport<T>(
  queryKey: QueryKey,
  windowId: number,
  enabled: boolean,
  fetch: (windowId: number, options: RequestOptions) => Promise<T>,
) {
  return useQuery({
    queryKey,
    queryFn: () => fetch(windowId, { quiet: true }),
    enabled: enabled && windowId > 0,
    staleTime: 30_000,
  });
}

/** The trend board: the server caches it per window; a draw's push asks again. */
export function useTrend(windowId: number, enabled = true) {
  return useWindowReport(roundsKeys.trend(windowId), windowId, enabled, roundsApi.trend);
}

/** The fairness report over the window's newest 1,000 rounds. */
export function useFairness(windowId: number, enabled = true) {
  return useWindowReport(roundsKeys.fairness(windowId), windowId, enabled, roundsApi.fairness);
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function applyResult(client: QueryClient, data: Record<string, unknown>): void {
  const windowId = Number(data.windowId);
  const issue = typeof data.issue === 'string' ? data.issue : '';
  client.setQueryData<WindowNow>(roundsKeys.window(windowId), (old) => {
    if (old?.round?.issue !== issue) return old;
    return { ...old, result: data as unknown as RoundResult };
  });
}

/**
 * Subscribes the query cache to the round pushes. Mounted once per screen that shows
 * windows; every listener only refreshes queries, so two screens mounting it is harmless.
 */
export function useRoundPushes(hub: PushHub = pushHub): void {
  const client = useQueryClient();
  useEffect(() => {
    const refreshWindow = (windowId: number): void => {
      void client.invalidateQueries({ queryKey: roundsKeys.window(windowId) });
    };
    const offs = [
      hub.on('round.phase', (value, receivedAt) => {
        const data = record(value);
        if (!data) return;
        if (typeof data.serverTime === 'number') serverClock.samplePush(data.serverTime, receivedAt);
        const windowId = Number(data.windowId);
        refreshWindow(windowId);
        void client.invalidateQueries({ queryKey: roundsKeys.lobby });
        if (data.phase === 'rest') void client.invalidateQueries({ queryKey: roundsKeys.history(windowId) });
      }),
      hub.on('round.result', (value) => {
        const data = record(value);
        if (!data) return;
        applyResult(client, data);
        refreshWindow(Number(data.windowId));
        void client.invalidateQueries({ queryKey: roundsKeys.history(Number(data.windowId)) });
        void client.invalidateQueries({ queryKey: roundsKeys.trend(Number(data.windowId)) });
        void client.invalidateQueries({ queryKey: roundsKeys.fairness(Number(data.windowId)) });
      }),
      hub.on('round.settled', (value) => {
        const data = record(value);
        if (!data) return;
        refreshWindow(Number(data.windowId));
        void client.invalidateQueries({ queryKey: roundsKeys.lobby });
      }),
      hub.on('balance', (value) => {
        const data = record(value);
        if (!data || typeof data.amount !== 'number') return;
        const amount = data.amount;
        client.setQueryData<Lobby>(roundsKeys.lobby, (old) => (old ? { ...old, availablePoints: amount } : old));
      }),
      hub.onResync(() => {
        void client.invalidateQueries({ queryKey: roundsKeys.all });
      }),
    ];
    const refreshAll = (): void => {
      if (document.visibilityState === 'visible') void client.invalidateQueries({ queryKey: roundsKeys.all });
    };
    document.addEventListener('visibilitychange', refreshAll);
    window.addEventListener('online', refreshAll);
    return () => {
      for (const off of offs) off();
      document.removeEventListener('visibilitychange', refreshAll);
      window.removeEventListener('online', refreshAll);
    };
  }, [client, hub]);
}

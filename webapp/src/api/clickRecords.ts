/**
 * The click records of the mine page: the caller's bets (`/activation/lotteryBettingRecord`,
 * httpapi/openapi/rounds.yaml), with the wallet records' tabs, day filter and paging.
 */
import { api } from './client';
import type { Bet } from './rounds';
import type { DayFilter, Page } from './wallet';

export type { Bet } from './rounds';

export type ClickTab = 'all' | 'unmatched' | 'matched';

export interface ClickRecordsQuery {
  tab: ClickTab;
  days: DayFilter;
  page: number;
  pageSize: number;
}

export const clickRecordsApi = {
  list: (query: ClickRecordsQuery, signal?: AbortSignal) =>
    api.request<Page<Bet>>('/activation/lotteryBettingRecord', { ...query }, { signal }),
};

/**
 * The click records of the mine page: the caller's bets (`/activation/lotteryBettingRecord`,
 * httpapi/openapi/rounds.yaml), with the wallet records' tabs, day filter and paging.
 */
import { api } from './client';
import type { DayFilter, Page } from './wallet';

export type BetContent = 'BIG' | 'SMALL' | 'SINGLE' | 'DOUBLE';

export interface Bet {
  betId: string;
  noteNo: string;
  windowId: number;
  /** Issue number of the round. */
  issue: string;
  content: BetContent;
  /** Cents. */
  amount: number;
  /** Settled. */
  matched: boolean;
  result: 'win' | 'lose' | '';
  /** Credited back on a win, stake included (cents). */
  payout: number;
  placedAt: number;
  settledAt: number;
}

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

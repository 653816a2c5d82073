/**
 * Typed calls of player protection (docs/API.md "Player protection", docs/PROTECTION.md):
 * the player's deposit and loss limits, reality check and exclusions, and today's net result.
 * Amounts are integer cents, times unix milliseconds of the server's clock.
 */
import { api, type RequestOptions } from './client';

export type LimitKind = 'deposit' | 'loss';
export type LimitPeriod = 'day' | 'week' | 'month';
export type ExclusionKind = 'cooloff' | 'selfexclusion';

export const LIMIT_KINDS: readonly LimitKind[] = ['deposit', 'loss'];
export const LIMIT_PERIODS: readonly LimitPeriod[] = ['day', 'week', 'month'];

/** Codes of the bet and recharge refusals (1600 loss limit, 1601 cool-off, 1602 self-exclusion). */
export const PROTECTION_REFUSALS = [1600, 1601, 1602] as const;

export interface Limit {
  kind: LimitKind;
  period: LimitPeriod;
  /** In force; 0: no limit. */
  amount: number;
  /** A raise (or removal, nextAmount 0) waits until nextAt. */
  pending: boolean;
  nextAmount: number;
  nextAt: number;
  /** What counts against it this period, and when the period resets. */
  used: number;
  resetsAt: number;
}

export interface Exclusion {
  kind: ExclusionKind;
  startsAt: number;
  /** 0: permanent. */
  endsAt: number;
}

export interface ProtectionStatus {
  limits: Limit[];
  exclusion: Exclusion | null;
  /** 0: off. */
  realityMinutes: number;
  todayNet: number;
  sinceNet: number;
  now: number;
}

export type ExclusionRequest =
  | { kind: 'cooloff'; days: number }
  | { kind: 'selfexclusion'; months: number }
  | { kind: 'selfexclusion'; permanent: true };

export const protectionApi = {
  /** `since`: the play session's start (unix ms) for `sinceNet`; 0 for none. */
  status: (since: number, options?: RequestOptions) =>
    api.request<ProtectionStatus>('/protection/status', { since }, options),
  setLimit: (kind: LimitKind, period: LimitPeriod, amount: number) =>
    api.request<Limit>('/protection/limit', { kind, period, amount }, { quiet: true }),
  setReality: (minutes: number) =>
    api.request<{ realityMinutes: number }>('/protection/reality', { minutes }, { quiet: true }),
  exclude: (request: ExclusionRequest) => api.request<Exclusion>('/protection/exclude', { ...request }, { quiet: true }),
};

/**
 * Typed calls of the activation windows (docs/API.md "Activation windows", /activation/...;
 * the rules in docs/ROUNDS.md).
 * Amounts are integer cents, times unix milliseconds of the server's clock.
 */
import { api, type ApiClient, type RequestOptions } from './client';

export type RoundPhase = 'upcoming' | 'betting' | 'drawing' | 'rest';
export type BetContent = 'BIG' | 'SMALL' | 'SINGLE' | 'DOUBLE';

export const BET_CONTENTS: readonly BetContent[] = ['BIG', 'SMALL', 'SINGLE', 'DOUBLE'];

/** The wallet's code for a stake the balance cannot cover. */
export const INSUFFICIENT_BALANCE_CODE = 1200;

export interface LobbyWindow {
  windowId: number;
  index: number;
  issue: string;
  phase: RoundPhase;
  deadline: number;
  seedHash: string;
  roundsCount: number;
  ordersCount: number;
  totalPoints: number;
}

export interface Lobby {
  serverTime: number;
  availablePoints: number;
  windows: LobbyWindow[];
}

export interface Round {
  windowId: number;
  issue: string;
  phase: RoundPhase;
  deadline: number;
  startsAt: number;
  bettingEndsAt: number;
  drawingEndsAt: number;
  restEndsAt: number;
  seedHash: string;
  odds: string;
  oddsBp: number;
  minBet: number;
  maxBet: number;
  ordersCount: number;
  totalPoints: number;
}

export interface RoundResult {
  windowId: number;
  issue: string;
  digits: [number, number, number];
  sum: number;
  outcome: [BetContent, BetContent];
  seedHash: string;
  serverSeed: string;
  drawnAt: number;
  /** SHA-256 of the bet list committed when betting closed (docs/ROUNDS.md). */
  betsHash?: string;
  /** The public beacon round that decided the draw with the seed; 0 or absent: none (foreseeable by the operator). */
  beaconRound?: number;
  /** Where anyone reads that beacon round; '' without a beacon. */
  beaconUrl?: string;
  /** When the beacon published the round (unix ms). */
  beaconAt?: number;
  /** The beacon round's randomness, hex. */
  beaconValue?: string;
}

/** A closed round's committed bet list (/activation/roundBets): SHA-256 of its lines is betsHash. */
export interface RoundBetList {
  windowId: number;
  issue: string;
  betsHash: string;
  bets: { noteNo: string; content: BetContent; amount: number }[];
}

export interface NextRound {
  issue: string;
  startsAt: number;
  seedHash: string;
}

/** One of the caller's bets (the round page's list and the mine page's click records). */
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
  /** refund: the round was voided and the stake paid back in full. */
  result: 'win' | 'lose' | 'refund' | '';
  /** Credited back on a win, stake included (cents). */
  payout: number;
  placedAt: number;
  settledAt: number;
}

export interface WindowNow {
  windowId: number;
  serverTime: number;
  round: Round | null;
  result: RoundResult | null;
  previous: RoundResult | null;
  next: NextRound | null;
  myBets: Bet[];
  /** The next round's odds and limits when an operator changed them (absent when the same). */
  coming?: ComingRules;
}

/** A round's odds and limits (cents); issue is empty while the round is not created yet. */
export interface ComingRules {
  issue?: string;
  odds: string;
  oddsBp: number;
  minBet: number;
  maxBet: number;
}

export interface WindowRules {
  windowId: number;
  odds: string;
  oddsBp: number;
  minBet: number;
  maxBet: number;
  bettingMs: number;
  drawingMs: number;
  restMs: number;
  enabled: boolean;
  text: string;
}

export interface RuleList {
  rules: WindowRules[];
  contents: BetContent[];
  fairness: string;
}

export interface ResultPage {
  list: RoundResult[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** One round on a trend grid. */
export interface TrendCell {
  col: number;
  row: number;
  value: BetContent;
  issue: string;
  sum: number;
}

export interface TrendStreak {
  value: BetContent;
  length: number;
  /** First issue of the run. */
  from: string;
}

/** One pair of outcomes (size: BIG/SMALL, parity: SINGLE/DOUBLE) as bead grid and big road. */
export interface TrendBoard {
  kind: 'size' | 'parity';
  values: [BetContent, BetContent];
  bead: TrendCell[];
  beadColumns: number;
  road: TrendCell[];
  roadColumns: number;
  counts: Partial<Record<BetContent, number>>;
  longest: Partial<Record<BetContent, TrendStreak>>;
  current: TrendStreak | null;
}

/** /activation/trend: a window's newest 100 rounds on both boards. */
export interface Trend {
  windowId: number;
  rounds: number;
  latestIssue: string;
  rows: number;
  boards: TrendBoard[];
  results: RoundResult[];
}

export interface FairnessRow {
  /** BIG, SMALL, SINGLE, DOUBLE, "BIG SINGLE"…, or a digit "0".."9". */
  outcome: string;
  observed: number;
  expected: number;
  share: number;
  fair: number;
  /** The newest round with this outcome, to verify. */
  latest?: RoundResult;
}

export interface FairnessTest {
  group: 'size' | 'parity' | 'combination' | 'digit';
  total: number;
  rows: FairnessRow[];
  chiSquare: number;
  df: number;
  pValue: number;
}

/** /activation/fairness: a window's newest 1,000 rounds against a fair draw. */
export interface Fairness {
  rounds: number;
  tests: FairnessTest[];
}

export interface BetInput {
  windowId: number;
  issue: string;
  content: BetContent;
  amount: number;
  betId: string;
}

/** One line of a bet slip: a content and its stake in cents. */
export interface SlipSelection {
  content: BetContent;
  amount: number;
}

/** A bet slip: 1-4 distinct contents on one round, accepted or refused together. */
export interface SlipInput {
  windowId: number;
  issue: string;
  selections: SlipSelection[];
  /** Chosen by the client like a bet id (at most 62 characters); its bets get slipId.1, slipId.2, ... */
  slipId: string;
}

/** An accepted slip: a bet per selection, in their order, and the total staked (cents). */
export interface Slip {
  slipId: string;
  total: number;
  bets: Bet[];
}

/** A fresh bet id: resending the same id returns the same bet (the server is idempotent on it). */
export function newBetId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `w${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function createRoundsApi(client: ApiClient = api) {
  return {
    lobby: (options?: RequestOptions) => client.request<Lobby>('/activation/lotteryList', {}, options),
    current: (windowId: number, options?: RequestOptions) =>
      client.request<WindowNow>('/activation/getNewLottery', { windowId }, options),
    rules: (options?: RequestOptions) => client.request<RuleList>('/activation/getRuleList', {}, options),
    bet: (input: BetInput, options?: RequestOptions) =>
      client.request<Bet>('/activation/betRequest', { ...input }, options),
    betSlip: (input: SlipInput, options?: RequestOptions) =>
      client.request<Slip>('/activation/betSlip', { ...input }, options),
    history: (windowId: number, page: number, pageSize = 20, options?: RequestOptions) =>
      client.request<ResultPage>('/activation/historyPrize', { windowId, page, pageSize }, options),
    trend: (windowId: number, options?: RequestOptions) =>
      client.request<Trend>('/activation/trend', { windowId }, options),
    fairness: (windowId: number, options?: RequestOptions) =>
      client.request<Fairness>('/activation/fairness', { windowId }, options),
    roundBets: (windowId: number, issue: string, options?: RequestOptions) =>
      client.request<RoundBetList>('/activation/roundBets', { windowId, issue }, options),
  };
}

export type RoundsApi = ReturnType<typeof createRoundsApi>;

export const roundsApi: RoundsApi = createRoundsApi();

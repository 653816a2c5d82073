/** The shapes the /api/admin routes answer (ids are strings, amounts cents, times unix ms). */
import type { CustomerMessage } from '../../src/api/customer';
import type { WindowRules as AppWindowRules } from '../../src/api/rounds';
import type { Order as AppOrder } from '../../src/api/wallet';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** An app order as the console lists it: the same view, with whose order it is. */
export interface Order extends AppOrder {
  userId?: string;
  account?: string;
  /** A recharge above KJ_RECHARGE_MAX: credited only on a second, different operator's approval. */
  needsSecondApproval?: boolean;
  /** The account of the operator who approved it first (absent until then). */
  firstApprovedBy?: string;
  firstApprovedAt?: number;
}

export interface AdminUser {
  userId: string;
  account: string;
  nickName: string;
  avatar: string;
  phone: string;
  inviteCode: string;
  superiorId: string;
  isActivation: number;
  isOperator: number;
  createdAt: number;
  lastLoginAt: number;
  lastLoginIp: string;
}

export interface LedgerEntry {
  transferId: string;
  kind: string;
  ref: string;
  amount: number;
  balanceAfter: number;
  createdAt: number;
}

export interface BankCard {
  id: string;
  bankName: string;
  holderName: string;
  cardNumber: string;
  createdAt: number;
}

export interface SignIn {
  platform: number;
  createdAt: number;
  /** 0 active, 1 signed out, 2 replaced by a newer sign-in */
  state: number;
}

export interface UserBet {
  betId: string;
  windowId: number;
  issue: string;
  content: string;
  amount: number;
  result: string;
  payout: number;
  placedAt: number;
}

export interface UserDetail {
  user: AdminUser;
  role: '' | 'admin' | 'agent';
  frozen: boolean;
  frozenAt: number;
  pendingExchange: number;
  hasFundPassword: boolean;
  balance: number;
  entries: LedgerEntry[];
  bets: UserBet[];
  recharges: Order[];
  exchanges: Order[];
  bankCards: BankCard[];
  signIns: SignIn[];
}

/** A window's rules as the app reads them, without the rules text the app shows. */
export type WindowRules = Omit<AppWindowRules, 'text'> & {
  /** The odds and limits of the round now (absent before the window's first round). */
  current?: { issue: string; odds: string; oddsBp: number; minBet: number; maxBet: number } | null;
  /** The first round played with the settings above. */
  fromIssue?: string;
  /** The settings do not apply to the round now yet. */
  pending?: boolean;
};

export interface RoundView {
  windowId: number;
  issue: string;
  phase: string;
  deadline: number;
  startsAt: number;
  seedHash: string;
  odds: string;
  minBet: number;
  maxBet: number;
  ordersCount: number;
  totalPoints: number;
}

export interface ResultView {
  windowId: number;
  issue: string;
  digits: number[];
  sum: number;
  outcome: string[];
  seedHash: string;
  serverSeed: string;
  drawnAt: number;
}

export interface CurrentRound {
  windowId: number;
  serverTime: number;
  round: RoundView | null;
  result: ResultView | null;
  previous: ResultView | null;
  next: { issue: string; startsAt: number; seedHash: string } | null;
}

export interface RoundBets {
  windowId: number;
  issue: string;
  odds: string;
  result: ResultView | null;
  staked: number;
  paidOut: number;
  bets: (UserBet & { userId: string; account: string })[];
}

export interface AuditEntry {
  id: string;
  operatorId: string;
  operator: string;
  action: string;
  target: string;
  detail: unknown;
  createdAt: number;
  /** The row in words, in the console's language (server-side, audit_render.go). */
  reading: AuditReading;
}

export interface AuditReading {
  text: string;
  changes: { field: string; before: string; after: string }[];
  remark?: string;
  reason?: string;
  ip?: string;
  userId?: string;
  orderId?: string;
  /** The number of the order the row names (the review screens search by it). */
  orderNo?: string;
}

/** An action the audit log records, named in words in the console's language. */
export interface AuditAction {
  action: string;
  name: string;
}

export interface Visitor {
  visitorNo: string;
  userId: string;
  account: string;
  nickname: string;
  serviceId: string;
  unread: number;
  lastMessage: string;
  lastMessageAt: number;
  createdAt: number;
  /** When the enquiry no agent has answered yet started (0: answered). */
  waitingSince: number;
  /** Waited longer than KJ_CUSTOMER_UNCLAIMED_AFTER: every agent sees it. */
  unclaimed: boolean;
}

export type { CustomerMessage };

export interface Operator {
  userId: string;
  account: string;
  nickName: string;
  role: 'admin' | 'agent';
  createdAt: number;
  lastLoginAt: number;
  /** When an admin disabled the operator's sign-in; 0 when enabled. */
  disabledAt: number;
}

export interface DayFigures {
  day: string;
  registrations: number;
  activeUsers: number;
  rechargeCount: number;
  rechargeTotal: number;
  exchangeCount: number;
  exchangeTotal: number;
}

export interface WindowFigures {
  windowId: number;
  bets: number;
  staked: number;
  paidOut: number;
  houseResult: number;
}

export interface Dashboard {
  from: string;
  to: string;
  days: DayFigures[];
  windowsToday: WindowFigures[];
  windowsWeek: WindowFigures[];
  chatSockets: number;
  customerSockets: number;
  pendingRecharges: number;
  pendingExchanges: number;
  /** Customer-service enquiries waiting longer than KJ_CUSTOMER_UNCLAIMED_AFTER for an answer. */
  unclaimedEnquiries: number;
}

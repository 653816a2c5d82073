/**
 * Typed calls of the wallet area (httpapi/openapi/wallet.yaml). Every amount is integer cents
 * of points (1 point = 1 USDT).
 */
import { api, newOperationId, type RequestOptions } from './client';

export interface WalletSummary {
  userId: string;
  /** Spendable balance, cents. */
  amount: number;
  /** Exchanges under review, cents. */
  frozenAmount: number;
  hasFundPassword: boolean;
  bankCardCount: number;
  isRecharge: boolean;
  exchangeMin: number;
  exchangeMax: number;
}

export type UsdtProtocol = 'TRC20' | 'ERC20';

export interface ChainType {
  protocol: UsdtProtocol;
  /** e.g. USDT-TRC20 */
  name: string;
  /** e.g. TRON */
  network: string;
  address: string;
  /** Smallest recharge, cents. */
  minDep: number;
  /** Largest recharge one operator credits, cents; above it an order waits for a second approval. */
  maxDep?: number;
}

export interface ChainTypes {
  list: ChainType[];
  minDep: number;
  currency: string;
  /** Recharge through customer service is offered (KJ_RECHARGE_VIA_SERVICE). */
  service?: boolean;
}

/** 0 under review, 1 completed, 2 failed. */
export type OrderStatus = 0 | 1 | 2;

export interface Order {
  id: string;
  orderNo: string;
  amount: number;
  status: OrderStatus;
  remark: string;
  createdAt: number;
  /** 0 until reviewed. */
  reviewTime: number;
  protocol?: string;
  address?: string;
  txHash?: string;
  bankName?: string;
  holderName?: string;
  cardNumber?: string;
  /** A new recharge held (not credited) by the player's deposit limit, and why (docs/PROTECTION.md). */
  held?: boolean;
  heldMessage?: string;
}

export interface PointsRecord {
  id: string;
  /** recharge, exchange, exchange_refund, bet, bet_return, bet_win, reversal ... */
  type: string;
  /** Signed cents: income > 0, expenditure < 0. */
  amount: number;
  state: OrderStatus;
  orderNo: string;
  time: number;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Day filter of the record screens: today (0) or the last 7, 15, 30 days. */
export type DayFilter = 0 | 7 | 15 | 30;

export interface RecordsQuery<Tab extends string> {
  tab: Tab;
  days: DayFilter;
  page: number;
  pageSize: number;
}

export type PointsTab = 'all' | 'income' | 'expenditure';
export type ExchangeTab = 'all' | 'review' | 'success' | 'failed';

export interface BankCard {
  id: string;
  bankId: string;
  bankName: string;
  holderName: string;
  /** Masked: ************1234 */
  cardNumber: string;
  createdAt: number;
}

export interface Bank {
  id: string;
  name: string;
  country: string;
  sort: number;
  enabled: number;
}

export interface AddBankCardInput {
  name: string;
  bank: string;
  cardNumber: string;
  confirmCardNumber: string;
  fundPassword: string;
}

export interface ExchangeInput {
  amount: number;
  bankCardId: string;
  fundPassword: string;
}

/** A fresh key per exchange the user asks for; a retry of the same request reuses it. */
export function newIdempotencyKey(): string {
  return `ex-${newOperationId()}`;
}

export const walletApi = {
  summary: (options?: RequestOptions) => api.request<WalletSummary>('/user/getUserAmount', {}, options),
  chainTypes: () => api.request<ChainTypes>('/user/getChainTypes'),
  recharge: (amount: number, protocol: UsdtProtocol, txHash: string) =>
    api.request<Order>('/user/rechargeOrder', { amount, protocol, txHash }, { quiet: true }),
  exchange: (input: ExchangeInput, idempotencyKey: string) =>
    api.request<Order>('/user/exchange', { ...input }, { quiet: true, headers: { 'Idempotency-Key': idempotencyKey } }),
  pointsRecords: (query: RecordsQuery<PointsTab>, signal?: AbortSignal) =>
    api.request<Page<PointsRecord>>('/user/userCoinRecode', { ...query }, { signal }),
  exchangeRecords: (query: RecordsQuery<ExchangeTab>, signal?: AbortSignal) =>
    api.request<Page<Order>>('/user/userExchangeRecode', { ...query }, { signal }),

  setFundPassword: (password: string) =>
    api.request<{ hasFundPassword: boolean }>('/user/setWalletPwd', { password }, { quiet: true }),
  changeFundPassword: (oldPassword: string, password: string) =>
    api.request<{ hasFundPassword: boolean }>('/user/changeWalletPwd', { oldPassword, password }, { quiet: true }),

  bankCards: () => api.request<{ list: BankCard[] }>('/user/userBankList'),
  banks: () => api.request<{ list: Bank[] }>('/user/getBankList'),
  addBankCard: (input: AddBankCardInput) => api.request<BankCard>('/user/setBankCard', { ...input }, { quiet: true }),
  deleteBankCard: (id: string) => api.request<null>('/user/userDelBank', { id }, { quiet: true }),
};

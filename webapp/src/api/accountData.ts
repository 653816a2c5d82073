/**
 * Typed calls of leaving with one's data (httpapi/openapi/accounts.yaml): the export of
 * everything the server holds about the user, what a deletion would do with their money, and
 * the deletion itself. Both the export and the deletion ask for the login password again.
 */
import { api } from './client';

/** The export as the server answers it: a file name and the document to save under it. */
export interface AccountExport {
  fileName: string;
  data: Record<string, unknown>;
}

/** A card the balance can be exchanged to, masked. */
export interface DeletionCard {
  id: string;
  bankName: string;
  cardNumber: string;
}

/** What deleting the account would do with its money, and what stops it for now. */
export interface DeletionFacts {
  /** Points in the wallet, cents. */
  balance: number;
  pendingExchanges: number;
  /** The exchanges under review, cents. */
  pendingAmount: number;
  cards: DeletionCard[];
  hasFundPassword: boolean;
  exchangeMin: number;
  exchangeMax: number;
  /** Bets not yet settled: the deletion waits for them. */
  openBets: number;
  /** Recharges under review: the deletion waits for them. */
  pendingRecharges: number;
  /** Groups with other members the user owns: transferred or dismissed first. */
  ownedGroups: number;
  retentionDays: number;
}

/** The answer to the balance question: exchange it to a card, or give it up. */
export type BalanceChoice = 'exchange' | 'forfeit';

export interface DeleteAccountInput {
  password: string;
  balance?: BalanceChoice;
  bankCardId?: string;
  fundPassword?: string;
}

export const accountDataApi = {
  exportData: (password: string) => api.request<AccountExport>('/user/data/export', { password }, { quiet: true }),
  deletionFacts: () => api.request<DeletionFacts>('/user/account/deletion', {}),
  deleteAccount: (input: DeleteAccountInput) =>
    api.request<null>('/user/account/delete', { ...input }, { quiet: true, maxAttempts: 1 }),
};

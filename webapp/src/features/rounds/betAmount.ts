/**
 * The checks of a bet before it is sent. The amount is typed in points with up to two decimals
 * and read by format/amount.ts into cents ("12.5" → 1250), exactly as typed or refused with the
 * reason; the server takes integer cents.
 */
import type { BetContent } from '../../api/rounds';
import type { AmountProblem, AmountResult } from '../../format/amount';

export type BetProblem =
  | { kind: 'content' }
  | { kind: 'amount'; problem: AmountProblem }
  | { kind: 'min'; min: number }
  | { kind: 'max'; max: number }
  | { kind: 'balance' }
  | { kind: 'closed' };

export interface BetCheck {
  content: BetContent | null;
  amount: AmountResult;
  minBet: number;
  maxBet: number;
  /** Spendable balance in cents; null while unknown (the server still checks). */
  balance: number | null;
  bettingOpen: boolean;
}

/** The first rule a bet breaks, or null: checked before anything is sent. */
export function checkBet({ content, amount, minBet, maxBet, balance, bettingOpen }: BetCheck): BetProblem | null {
  if (!bettingOpen) return { kind: 'closed' };
  if (!content) return { kind: 'content' };
  if (!amount.ok) return { kind: 'amount', problem: amount.problem };
  const amountCents = amount.cents;
  if (amountCents < minBet) return { kind: 'min', min: minBet };
  if (amountCents > maxBet) return { kind: 'max', max: maxBet };
  if (balance !== null && amountCents > balance) return { kind: 'balance' };
  return null;
}

/** Chip values in whole points that fit the round's limits. */
export function chipValues(minBet: number, maxBet: number): number[] {
  const base = [10, 50, 100, 500, 1000];
  const fitting = base.filter((points) => points * 100 >= minBet && points * 100 <= maxBet);
  if (fitting.length > 0) return fitting;
  // Narrow limits: one chip, the smallest whole number of points the round accepts.
  const smallest = Math.ceil(minBet / 100);
  return smallest * 100 <= maxBet ? [smallest] : [];
}

/**
 * The bet amount as typed: the product asks this: numeric input strips non-digits and leading
 * zeros. The field is in whole points; the server takes integer cents.
 */
import type { BetContent } from '../../api/rounds';

export function sanitizeDigits(input: string): string {
  return input.replace(/\D+/g, '').replace(/^0+/, '');
}

/** Whole points as typed → cents (null for an empty field). */
export function pointsToCents(points: string): number | null {
  if (points === '') return null;
  const value = Number(points);
  if (!Number.isSafeInteger(value)) return Number.MAX_SAFE_INTEGER;
  return Math.min(value * 100, Number.MAX_SAFE_INTEGER);
}

export type BetProblem =
  | { kind: 'content' }
  | { kind: 'amount' }
  | { kind: 'min'; min: number }
  | { kind: 'max'; max: number }
  | { kind: 'balance' }
  | { kind: 'closed' };

export interface BetCheck {
  content: BetContent | null;
  amountCents: number | null;
  minBet: number;
  maxBet: number;
  /** Spendable balance in cents; null while unknown (the server still checks). */
  balance: number | null;
  bettingOpen: boolean;
}

/** The first rule a bet breaks, or null: checked before anything is sent. */
export function checkBet({ content, amountCents, minBet, maxBet, balance, bettingOpen }: BetCheck): BetProblem | null {
  if (!bettingOpen) return { kind: 'closed' };
  if (!content) return { kind: 'content' };
  if (amountCents === null || amountCents <= 0) return { kind: 'amount' };
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

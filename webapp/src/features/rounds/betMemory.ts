/**
 * What the bet panel remembers on this device (localStorage, per browser, not per account):
 * the last bet placed — for "repeat last bet" and as the amount the chips start from — and the
 * amount above which the player wants to confirm a bet before it is sent.
 */
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { BET_CONTENTS, type BetContent } from '../../api/rounds';

export interface LastBet {
  content: BetContent;
  /** Cents, as typed or chosen (points with up to two decimals). */
  cents: number;
}

/** A stored value read back: anything else than a last bet becomes null. */
export function readLastBet(value: unknown): LastBet | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const content = v.content;
  // Before amounts took decimals the last bet was kept in whole points.
  const cents = typeof v.cents === 'number' ? v.cents : Number.isSafeInteger(v.points) ? (v.points as number) * 100 : null;
  if (typeof content !== 'string' || !(BET_CONTENTS as readonly string[]).includes(content)) return null;
  if (cents === null || !Number.isSafeInteger(cents) || cents <= 0) return null;
  return { content: content as BetContent, cents };
}

/** Whether a bet of amountCents needs the player's confirmation (threshold in cents; 0 = never). */
export function needsConfirmation(amountCents: number, thresholdCents: number): boolean {
  return thresholdCents > 0 && amountCents > thresholdCents;
}

const storage = createJSONStorage<unknown>(() => localStorage);

export const lastBetAtom = atomWithStorage<unknown>('kj.rounds.lastBet', null, storage, { getOnInit: true });

/** {cents}: the threshold (a plain number is whole points, as kept before); 0 turns the confirmation off. */
export const confirmAboveAtom = atomWithStorage<unknown>('kj.rounds.confirmAbove', 0, storage, { getOnInit: true });

/** The stored threshold read back, in cents ≥ 0. */
export function readThreshold(value: unknown): number {
  let cents: unknown = null;
  if (Number.isSafeInteger(value)) cents = (value as number) * 100;
  else if (typeof value === 'object' && value !== null) cents = (value as Record<string, unknown>).cents;
  return typeof cents === 'number' && Number.isSafeInteger(cents) && cents > 0 ? cents : 0;
}

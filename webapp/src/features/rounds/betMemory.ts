/**
 * What the bet panel remembers on this device (localStorage, per browser, not per account):
 * the last bet placed — for "repeat last bet" and as the amount the chips start from — and the
 * amount above which the player wants to confirm a bet before it is sent.
 */
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { BET_CONTENTS, type BetContent } from '../../api/rounds';

export interface LastBet {
  content: BetContent;
  /** Whole points, as typed or chosen. */
  points: number;
}

/** A stored value read back: anything else than a last bet becomes null. */
export function readLastBet(value: unknown): LastBet | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const content = v.content;
  const points = v.points;
  if (typeof content !== 'string' || !(BET_CONTENTS as readonly string[]).includes(content)) return null;
  if (typeof points !== 'number' || !Number.isSafeInteger(points) || points <= 0) return null;
  return { content: content as BetContent, points };
}

/** Whether a bet of amountCents needs the player's confirmation (threshold in whole points; 0 = never). */
export function needsConfirmation(amountCents: number, thresholdPoints: number): boolean {
  return thresholdPoints > 0 && amountCents > thresholdPoints * 100;
}

const storage = createJSONStorage<unknown>(() => localStorage);

export const lastBetAtom = atomWithStorage<unknown>('kj.rounds.lastBet', null, storage, { getOnInit: true });

/** Whole points; 0 turns the confirmation off. */
export const confirmAboveAtom = atomWithStorage<unknown>('kj.rounds.confirmAbove', 0, storage, { getOnInit: true });

/** The stored threshold read back: a whole number of points ≥ 0. */
export function readThreshold(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

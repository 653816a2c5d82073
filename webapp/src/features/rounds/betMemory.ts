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

/**
 * The last play read back: one bet, or the selections of a bet slip ({selections: [{content,
 * cents}, ...]}, 2-4 distinct contents). Anything else becomes null.
 */
export function readLastPlay(value: unknown): LastBet[] | null {
  const selections = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).selections : undefined;
  if (selections === undefined) {
    const single = readLastBet(value);
    return single ? [single] : null;
  }
  if (!Array.isArray(selections) || selections.length < 2 || selections.length > BET_CONTENTS.length) return null;
  const out: LastBet[] = [];
  for (const item of selections) {
    const bet = readLastBet(item);
    if (!bet || out.some((b) => b.content === bet.content)) return null;
    out.push(bet);
  }
  return out;
}

/** What is stored for a play: a single bet as before, a slip as its selections. */
export function storedPlay(play: readonly LastBet[]): unknown {
  return play.length === 1 ? { ...play[0] } : { selections: play.map((b) => ({ ...b })) };
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

import type { Round, RoundPhase } from '../../api/rounds';

export interface PhaseNow {
  phase: RoundPhase | 'next';
  /** When this phase ends, server clock. */
  deadline: number;
  /** Length of this phase, for the progress bar (0 when unknown). */
  length: number;
}

/**
 * Where a round stands at `now` (server clock), from the absolute times the server stored
 * for it: the countdown moves on at a deadline without waiting for the next answer. 'next'
 * means the round is over and the next one has started (its data is being fetched).
 */
export function phaseAt(round: Round, now: number): PhaseNow {
  if (round.phase === 'upcoming' || now < round.startsAt) {
    return { phase: 'upcoming', deadline: round.startsAt, length: 0 };
  }
  if (now < round.bettingEndsAt) {
    return { phase: 'betting', deadline: round.bettingEndsAt, length: round.bettingEndsAt - round.startsAt };
  }
  if (now < round.drawingEndsAt) {
    return { phase: 'drawing', deadline: round.drawingEndsAt, length: round.drawingEndsAt - round.bettingEndsAt };
  }
  if (now < round.restEndsAt) {
    return { phase: 'rest', deadline: round.restEndsAt, length: round.restEndsAt - round.drawingEndsAt };
  }
  return { phase: 'next', deadline: round.restEndsAt, length: 0 };
}

/** Milliseconds → "mm:ss" (rounded up: a phase shows 00:00 only when it is over). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const mm = minutes >= 100 ? String(minutes) : String(minutes).padStart(2, '0');
  return `${mm}:${String(seconds).padStart(2, '0')}`;
}

/** How long to wait before asking the server again about something that changes at `deadline`. */
export function refetchDelay(deadline: number | null, now: number, { settle = 150, overdue = 600, max = 15_000 } = {}): number {
  if (deadline === null) return 5_000;
  const remaining = deadline - now;
  if (remaining <= 0) return overdue;
  return Math.min(remaining + settle, max);
}

/**
 * An amount of money as a person types it: points (or USDT) with at most two decimals, read
 * from the text digit by digit into integer cents, never through a float ("12.5" → 1250,
 * "0050.5" → 5050, "0.1" + "0.2" cannot become 30.000000000000004). Anything else is refused
 * with the reason, never changed into something that was not typed: the web app's bet,
 * recharge and exchange fields and the console's limits all read amounts here.
 */

/** The largest amount the ledger takes, in cents (storage.MaxAmount): 10^15. */
export const MAX_AMOUNT_CENTS = 1_000_000_000_000_000;

/** Why a typed amount is refused. */
export type AmountProblem =
  | 'required' // nothing typed
  | 'notNumber' // not digits with one optional decimal point
  | 'decimals' // more than two decimals: fractions of a cent
  | 'zero' // zero where a positive amount is needed
  | 'tooLarge'; // more than the ledger takes

export type AmountResult = { ok: true; cents: number } | { ok: false; problem: AmountProblem };

export interface AmountRules {
  /** Zero is a valid amount (a threshold that is off, a limit of nothing). */
  allowZero?: boolean;
}

const SHAPE = /^(\d*)(?:\.(\d*))?$/;

/**
 * Reads typed text as cents. Surrounding spaces are ignored; "12." and ".5" are 12.00 and 0.50;
 * "-1", "1e3", "1,000", "１２" and "12.345" are refused with their reason.
 */
export function parseAmount(text: string, rules: AmountRules = {}): AmountResult {
  const typed = text.trim();
  if (typed === '') return { ok: false, problem: 'required' };
  const match = SHAPE.exec(typed);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) return { ok: false, problem: 'notNumber' };
  if (fraction.length > 2) return { ok: false, problem: 'decimals' };
  const digits = whole.replace(/^0+/, '');
  // 10^15 cents is 10^13 points: 14 digits before the point at most.
  if (digits.length > 14) return { ok: false, problem: 'tooLarge' };
  const cents = Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, problem: 'tooLarge' };
  if (cents === 0 && !rules.allowZero) return { ok: false, problem: 'zero' };
  return { ok: true, cents };
}

/** The cents of a typed amount, or null when it is refused. */
export function amountCents(text: string, rules: AmountRules = {}): number | null {
  const result = parseAmount(text, rules);
  return result.ok ? result.cents : null;
}

/** Cents → the plain decimal an amount field takes back (1230 → "12.3", 5 → "0.05", 1200 → "12"). */
export function centsToAmountText(cents: number): string {
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  if (fraction === 0) return String(whole);
  return `${whole}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
}

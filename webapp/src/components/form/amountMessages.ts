import type { ParseKeys } from 'i18next';
import type { AmountProblem } from '../../format/amount';

/** The message of each reason a typed amount is refused (format/amount.ts), for every money field. */
export const AMOUNT_PROBLEM_KEYS: Record<AmountProblem, ParseKeys> = {
  required: 'validation.amountRequired',
  notNumber: 'validation.amountNotNumber',
  decimals: 'validation.amountDecimals',
  zero: 'validation.amountZero',
  tooLarge: 'validation.amountTooLarge',
};

import type { TFunction } from 'i18next';

/**
 * Money is an integer number of cents. Grouping, separators and the
 * abbreviation units come from the locale: `format.numberScheme` is `myriad` (zh: groups of
 * four digits, 万/亿 at 1e4/1e8) or `western` (groups of three, K/M/G at 1e3/1e6/1e9).
 */
type Scheme = 'myriad' | 'western';

const SCHEMES: Record<Scheme, { group: number; steps: readonly [number, number, number] }> = {
  myriad: { group: 4, steps: [1e4, 1e8, 1e12] },
  western: { group: 3, steps: [1e3, 1e6, 1e9] },
};

function scheme(t: TFunction): Scheme {
  return t('format.numberScheme') === 'myriad' ? 'myriad' : 'western';
}

function groupDigits(digits: string, size: number, separator: string): string {
  const parts: string[] = [];
  for (let end = digits.length; end > 0; end -= size) {
    parts.unshift(digits.slice(Math.max(0, end - size), end));
  }
  return parts.join(separator);
}

function wholeCents(cents: number): number {
  return Number.isFinite(cents) ? Math.round(cents) : 0;
}

/** 123456789 cents → "1,234,567.89" (en) or "123,4567.89" (zh). */
export function formatMoney(cents: number, t: TFunction): string {
  const value = wholeCents(cents);
  const abs = Math.abs(value);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  const { group } = SCHEMES[scheme(t)];
  const sign = value < 0 ? '-' : '';
  return `${sign}${groupDigits(String(whole), group, t('format.groupSeparator'))}${t('format.decimalSeparator')}${fraction}`;
}

/**
 * Abbreviated amount for tight places: below the first step it is `formatMoney`; above,
 * up to two decimals (cut, never rounded up, so a balance is never overstated) and the unit.
 */
export function formatMoneyShort(cents: number, t: TFunction): string {
  const value = wholeCents(cents);
  const abs = Math.abs(value);
  const units = abs / 100;
  const { steps, group } = SCHEMES[scheme(t)];
  const suffixes = [t('format.suffix1'), t('format.suffix2'), t('format.suffix3')] as const;
  let index = -1;
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    if (units >= steps[i]!) {
      index = i;
      break;
    }
  }
  if (index < 0) return formatMoney(value, t);
  // abs is in cents, so abs / step is the amount in hundredths of the step's unit.
  const hundredths = Math.floor(abs / steps[index]!);
  const whole = Math.floor(hundredths / 100);
  const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
  const sign = value < 0 ? '-' : '';
  const wholeText = groupDigits(String(whole), group, t('format.groupSeparator'));
  const decimals = fraction ? `${t('format.decimalSeparator')}${fraction}` : '';
  return `${sign}${wholeText}${decimals}${suffixes[index]!}`;
}

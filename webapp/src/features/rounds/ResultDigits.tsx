import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetContent } from '../../api/rounds';

interface ResultDigitsProps {
  /** The drawn digits, or null while the draw is running. */
  digits: readonly number[] | null;
  sum?: number;
  outcome?: readonly BetContent[];
  /** Animate the reveal (a fresh result), rather than show a result already known. */
  reveal?: boolean;
}

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/** Three digit wheels: rolling while the round is drawn, then stopping one by one on the result. */
export function ResultDigits({ digits, sum, outcome, reveal = false }: ResultDigitsProps) {
  const { t } = useTranslation();
  const [tick, setTick] = useState(0);
  const rolling = digits === null;
  const [still] = useState(prefersReducedMotion);

  useEffect(() => {
    if (!rolling || still) return undefined;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
    }, 90);
    return () => {
      clearInterval(timer);
    };
  }, [rolling, still]);

  return (
    <div className="result-digits" aria-live="polite" aria-busy={rolling} data-state={rolling ? 'rolling' : 'drawn'}>
      <ol className="result-digits__wheels" aria-label={rolling ? t('rounds.result.drawing') : t('rounds.result.digits')}>
        {[0, 1, 2].map((i) => {
          const shown = rolling ? (still ? '?' : String((tick + i * 3) % 10)) : String(digits[i] ?? '');
          return (
            <li
              key={i}
              className={`result-digits__wheel${rolling ? ' result-digits__wheel--rolling' : ''}${!rolling && reveal ? ' result-digits__wheel--reveal' : ''}`}
              style={!rolling && reveal ? { animationDelay: `${i * 220}ms` } : undefined}
              aria-hidden={rolling}
            >
              {shown}
            </li>
          );
        })}
      </ol>
      {!rolling && sum !== undefined ? (
        <p className="result-digits__summary">
          <span className="result-digits__sum">{t('rounds.result.sum', { sum })}</span>
          {outcome?.map((o) => (
            <span key={o} className={`outcome-tag outcome-tag--${o.toLowerCase()}`}>
              {t(`rounds.content.${o}`)}
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { formatCountdown } from './phase';

interface CountdownProps {
  /** Milliseconds left, server clock. */
  remaining: number;
  className?: string;
}

/** mm:ss; the accessible label reads the seconds left. */
export function Countdown({ remaining, className }: CountdownProps) {
  const { t } = useTranslation();
  const seconds = Math.max(0, Math.ceil(remaining / 1000));
  return (
    <time
      className={className ?? 'countdown'}
      dateTime={`PT${seconds}S`}
      aria-label={t('rounds.secondsLeft', { count: seconds })}
      data-seconds={seconds}
    >
      {formatCountdown(remaining)}
    </time>
  );
}

import { useRef, useState, type ReactNode, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './PullRefresh.css';

interface PullRefreshProps {
  onRefresh: () => Promise<unknown>;
  /** Pulling only starts when the list is scrolled to its top (the window by default). */
  atTop?: () => boolean;
  children: ReactNode;
}

const THRESHOLD = 64;
const MAX_PULL = 96;

/**
 * Pull-to-refresh for list pages: pulling down from the top of the page past
 * 64 px and letting go calls `onRefresh`; the indicator spins until it settles.
 */
export function PullRefresh({ onRefresh, atTop = () => window.scrollY <= 0, children }: PullRefreshProps) {
  const { t } = useTranslation();
  const start = useRef<number | null>(null);
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  const onTouchStart = (event: TouchEvent): void => {
    if (refreshing || !atTop()) return;
    start.current = event.touches[0]?.clientY ?? null;
  };
  const onTouchMove = (event: TouchEvent): void => {
    if (start.current === null) return;
    const dy = (event.touches[0]?.clientY ?? start.current) - start.current;
    // Resistance: the indicator moves half as fast as the finger.
    setPull(dy > 0 ? Math.min(MAX_PULL, dy / 2) : 0);
  };
  const onTouchEnd = (): void => {
    if (start.current === null) return;
    start.current = null;
    if (pull >= THRESHOLD / 2 + 16) {
      setRefreshing(true);
      setPull(THRESHOLD / 2 + 16);
      void onRefresh().finally(() => {
        setRefreshing(false);
        setPull(0);
      });
    } else {
      setPull(0);
    }
  };

  const ready = pull >= THRESHOLD / 2 + 16;
  return (
    <div className="pull-refresh" onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd} onTouchCancel={onTouchEnd}>
      <div className="pull-refresh__indicator" style={{ height: pull }} aria-hidden={pull === 0 && !refreshing}>
        {pull > 0 || refreshing ? (
          <span className={`pull-refresh__label${refreshing ? ' pull-refresh__label--busy' : ''}`} role="status">
            {refreshing ? t('pullRefresh.refreshing') : ready ? t('pullRefresh.release') : t('pullRefresh.pull')}
          </span>
        ) : null}
      </div>
      {children}
    </div>
  );
}

import { useRef, useState, type ReactNode, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './components.css';

const TRIGGER_PX = 64;

interface PullToRefreshProps {
  onRefresh: () => Promise<unknown>;
  /** Pulling only starts when the list is scrolled to its top. */
  atTop?: () => boolean;
  children: ReactNode;
}

/** Pull down at the top of a list to reload it (WEBAPP.md: pull-to-refresh on lists). */
export function PullToRefresh({ onRefresh, atTop = () => window.scrollY <= 0, children }: PullToRefreshProps) {
  const { t } = useTranslation();
  const startY = useRef<number | null>(null);
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  const onTouchStart = (event: TouchEvent): void => {
    if (refreshing || !atTop()) return;
    startY.current = event.touches[0]?.clientY ?? null;
  };
  const onTouchMove = (event: TouchEvent): void => {
    if (startY.current === null) return;
    const dy = (event.touches[0]?.clientY ?? 0) - startY.current;
    setPull(dy > 0 ? Math.min(dy / 2, TRIGGER_PX * 1.5) : 0);
  };
  const onTouchEnd = (): void => {
    if (startY.current === null) return;
    startY.current = null;
    if (pull >= TRIGGER_PX) {
      setRefreshing(true);
      setPull(TRIGGER_PX);
      void onRefresh().finally(() => {
        setRefreshing(false);
        setPull(0);
      });
    } else {
      setPull(0);
    }
  };

  let label = t('chat.pull.pull');
  if (refreshing) label = t('chat.pull.refreshing');
  else if (pull >= TRIGGER_PX) label = t('chat.pull.release');

  return (
    <div className="chat-ptr" onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd} onTouchCancel={onTouchEnd}>
      <div className="chat-ptr__indicator" style={{ height: pull }} aria-live="polite">
        {pull > 0 ? label : null}
      </div>
      {children}
    </div>
  );
}

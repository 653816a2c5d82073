import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoundResult } from '../../api/rounds';
import { useNextPageNearEnd } from '../../components/infinite-list/useNextPageNearEnd';
import { sectionGate } from '../../components/status/SectionState';
import { formatDateTime } from '../../format';
import { useHistory } from './queries';
import { VerifyDialog } from './VerifyDialog';

interface HistoryListProps {
  windowId: number;
}

const ROW_HEIGHT = 68;

/**
 * The part of an issue number that changes from round to round: the day's round counter
 * (issue numbers are the date, the window in 4 digits and the counter in 5). Any other shape
 * is shown whole.
 */
export function roundCounter(issue: string): string {
  const match = /^\d{8}\d{4}(\d{5})$/.exec(issue);
  return match?.[1] ? String(Number(match[1])) : issue;
}

/** Past results of the window, newest first, virtualised and loaded page by page. */
export function HistoryList({ windowId }: HistoryListProps) {
  const { t } = useTranslation();
  const history = useHistory(windowId);
  const [verifying, setVerifying] = useState<RoundResult | null>(null);
  const closeVerify = useCallback(() => {
    setVerifying(null);
  }, []);
  const listRef = useRef<HTMLUListElement>(null);
  const [offset, setOffset] = useState(0);
  const rows = history.data?.pages.flatMap((p) => p.list) ?? [];

  useLayoutEffect(() => {
    setOffset(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  }, [rows.length]);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollMargin: offset,
  });
  const items = virtualizer.getVirtualItems();
  useNextPageNearEnd(history, items.at(-1)?.index, rows.length, 3);

  if (!history.isSuccess) return sectionGate(history);
  if (rows.length === 0) return <p className="muted-note">{t('rounds.history.empty')}</p>;

  return (
    <>
      <ul ref={listRef} className="history" aria-label={t('rounds.history.title')} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const r = rows[item.index]!;
          return (
            <li
              key={r.issue}
              className="history__row"
              data-issue={r.issue}
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`, height: ROW_HEIGHT }}
            >
              <div className="history__main">
                {/* The counter, with the full issue number in the details a tap opens. */}
                <button
                  type="button"
                  className="history__issue"
                  title={r.issue}
                  aria-label={t('rounds.history.roundDetails', { round: roundCounter(r.issue), issue: r.issue })}
                  onClick={() => {
                    setVerifying(r);
                  }}
                >
                  {t('rounds.history.round', { round: roundCounter(r.issue) })}
                </button>
                <span className="history__time">{formatDateTime(r.drawnAt, t)}</span>
              </div>
              <div className="history__result">
                <span className="history__digits mono">{r.digits.join(' ')}</span>
                <span className="history__sum">= {r.sum}</span>
                {r.outcome.map((o) => (
                  <span key={o} className={`outcome-tag outcome-tag--${o.toLowerCase()}`}>
                    {t(`rounds.content.${o}`)}
                  </span>
                ))}
              </div>
              <button
                type="button"
                className="history__verify"
                onClick={() => {
                  setVerifying(r);
                }}
              >
                {t('rounds.history.verify')}
              </button>
            </li>
          );
        })}
      </ul>
      {history.isFetchingNextPage ? <p className="muted-note">{t('common.loading')}</p> : null}
      {verifying ? (
        <VerifyDialog result={verifying} onClose={closeVerify} />
      ) : null}
    </>
  );
}

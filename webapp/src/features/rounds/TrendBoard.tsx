import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetContent, TrendBoard as Board, TrendCell } from '../../api/rounds';
import { sectionGate } from '../../components/status/SectionState';
import { useTrend } from './queries';
import styles from './trend.module.css';

interface TrendBoardProps {
  windowId: number;
}

type Kind = Board['kind'];

/** Red for BIG and SINGLE, blue for SMALL and DOUBLE, as the bet buttons. */
const CELL_CLASS: Record<BetContent, string> = {
  BIG: styles['trend-cell--big'],
  SMALL: styles['trend-cell--small'],
  SINGLE: styles['trend-cell--single'],
  DOUBLE: styles['trend-cell--double'],
};

const NAME_CLASS: Record<BetContent, string> = {
  BIG: styles['trend__stat-name--big'],
  SMALL: styles['trend__stat-name--small'],
  SINGLE: styles['trend__stat-name--single'],
  DOUBLE: styles['trend__stat-name--double'],
};

function Grid({ cells, columns, rows, kind, label }: { cells: TrendCell[]; columns: number; rows: number; kind: 'bead' | 'road'; label: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles['trend-grid__scroll']}>
      <ol
        className={styles['trend-grid']}
        aria-label={label}
        data-grid={kind}
        style={{ gridTemplateColumns: `repeat(${Math.max(columns, 1)}, 22px)`, gridTemplateRows: `repeat(${rows}, 22px)` }}
      >
        {cells.map((c) => (
          <li
            key={c.issue}
            className={`${styles['trend-cell']} ${CELL_CLASS[c.value]}`}
            style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
            data-issue={c.issue}
            data-value={c.value}
            title={t('rounds.trend.cellTitle', { issue: c.issue, sum: c.sum })}
          >
            {kind === 'bead' ? t(`rounds.trend.short.${c.value}`) : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The window's last 100 outcomes as bead grid and big road, for size and for parity. */
export function TrendBoard({ windowId }: TrendBoardProps) {
  const { t } = useTranslation();
  const trend = useTrend(windowId);
  const [kind, setKind] = useState<Kind>('size');

  if (!trend.isSuccess) return sectionGate(trend);
  const data = trend.data;
  if (data.rounds === 0) return <p className="muted-note">{t('rounds.history.empty')}</p>;
  const board = data.boards.find((b) => b.kind === kind) ?? data.boards[0]!;

  return (
    <section className={styles.trend} data-rounds={data.rounds} data-latest={data.latestIssue} aria-label={t('rounds.trend.title')}>
      <div className={styles.trend__switch} role="group" aria-label={t('rounds.trend.kindLabel')}>
        {(['size', 'parity'] as const).map((k) => (
          <button
            key={k}
            type="button"
            aria-pressed={kind === k}
            className={`${styles.trend__kind}${kind === k ? ` ${styles['trend__kind--active']}` : ''}`}
            onClick={() => {
              setKind(k);
            }}
          >
            {t(`rounds.trend.kind.${k}`)}
          </button>
        ))}
      </div>
      <p className={styles.trend__summary}>{t('rounds.trend.summary', { n: data.rounds })}</p>
      <dl className={styles.trend__stats} data-board={board.kind}>
        {board.values.map((v) => (
          <div key={v} className={styles.trend__stat} data-value={v}>
            <dt className={NAME_CLASS[v]}>{t(`rounds.content.${v}`)}</dt>
            <dd>
              <span data-stat="count">{t('rounds.trend.count', { n: board.counts[v] ?? 0 })}</span>
              <span data-stat="longest">{t('rounds.trend.longest', { n: board.longest[v]?.length ?? 0 })}</span>
            </dd>
          </div>
        ))}
        {board.current ? (
          <div className={styles.trend__stat} data-stat="current">
            <dt>{t('rounds.trend.current')}</dt>
            <dd>{t('rounds.trend.streak', { value: t(`rounds.content.${board.current.value}`), n: board.current.length })}</dd>
          </div>
        ) : null}
      </dl>
      <h3 className={styles.trend__heading}>{t('rounds.trend.bead')}</h3>
      <Grid cells={board.bead} columns={board.beadColumns} rows={data.rows} kind="bead" label={t('rounds.trend.bead')} />
      <h3 className={styles.trend__heading}>{t('rounds.trend.road')}</h3>
      <Grid cells={board.road} columns={board.roadColumns} rows={data.rows} kind="road" label={t('rounds.trend.road')} />
    </section>
  );
}

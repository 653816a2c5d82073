import '../../components/ui/ui.css';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { RoundResult } from '../../api/rounds';
import { TAB_PATHS } from '../../navigation/paths';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
import { formatMoney } from '../../format';
import { PlayGuard } from '../protection/PlayGuard';
import { BetPanel } from './BetPanel';
import { Countdown } from './Countdown';
import { FairnessPanel } from './FairnessPanel';
import { HistoryList } from './HistoryList';
import { MyBets } from './MyBets';
import { phaseAt } from './phase';
import { PhaseBadge } from './PhaseBadge';
import { useLobby, useRoundPushes, useRules, useWindowNow } from './queries';
import { ResultDigits } from './ResultDigits';
import { TrendBoard } from './TrendBoard';
import { usePinned } from './usePinned';
import { useServerNow } from './useServerNow';
import { WinLoseBanner } from './WinLoseBanner';
import './rounds.css';

type Tab = 'bets' | 'history' | 'trend' | 'fairness' | 'rules';

/** Activation window N (/pages/find/incentive-window?id=N): one round at a time, live. */
export function IncentiveWindowPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const windowId = Number.parseInt(params.get('id') ?? '', 10);
  const valid = Number.isSafeInteger(windowId) && windowId > 0;
  const id = valid ? windowId : 0;

  useRoundPushes();
  const now = useServerNow();
  const current = useWindowNow(id);
  const lobby = useLobby(valid);
  const rules = useRules();
  const [tab, setTab] = useState<Tab>('bets');
  // Scrolled down to the bet panel or the tabs, the phase and the time left stay in view.
  const timer = useRef<HTMLDivElement>(null);
  const hasRound = Boolean(current.data?.round);
  const pinned = usePinned(timer, hasRound);

  // The result is animated only when it arrives while the page watches (not on a reload).
  const [watchedDraw, setWatchedDraw] = useState<string | null>(null);

  const data = current.data;
  const round = data?.round ?? null;
  const position = round ? phaseAt(round, now) : null;
  const phase = position?.phase ?? null;

  if (round && phase === 'drawing' && watchedDraw !== round.issue) setWatchedDraw(round.issue);

  const title = t('rounds.windowTitle', { index: id || '?' });
  const header = <PageHeader title={title} back fallback={TAB_PATHS.find} />;

  if (!valid) {
    return (
      <main className="page window-page">
        {header}
        <EmptyState title={t('rounds.unknownWindow')} />
      </main>
    );
  }
  if (current.isPending) {
    return (
      <main className="page window-page" aria-busy="true">
        {header}
        <p className="muted-note">{t('common.loading')}</p>
      </main>
    );
  }
  if (current.isError) {
    return (
      <main className="page window-page">
        {header}
        <EmptyState title={t('rounds.loadFailed')} text={current.error.message}>
          <button type="button" className="button" onClick={() => void current.refetch()}>
            {t('discover.retry')}
          </button>
        </EmptyState>
      </main>
    );
  }

  const lobbyWindow = lobby.data?.windows.find((w) => w.windowId === id);
  const balance = lobby.data ? lobby.data.availablePoints : null;
  // The window's figures under the round, each '—' until it is known.
  const stats: { name: string; label: string; value: number | string | null }[] = [
    { name: 'rounds', label: t('rounds.stats.rounds'), value: lobbyWindow ? lobbyWindow.roundsCount : null },
    { name: 'orders', label: t('rounds.stats.orders'), value: round ? round.ordersCount : null },
    { name: 'total', label: t('rounds.stats.total'), value: round ? formatMoney(round.totalPoints, t) : null },
    { name: 'available', label: t('rounds.stats.available'), value: balance === null ? null : formatMoney(balance, t) },
  ];
  const windowRules = rules.data?.rules.find((r) => r.windowId === id);

  // What the result board shows: the draw running, this round's result, or the one before.
  let board: { label: string; result: RoundResult | null; rolling: boolean } | null = null;
  if (round && data) {
    if (phase === 'drawing' || ((phase === 'rest' || phase === 'next') && !data.result)) {
      board = { label: t('rounds.result.current', { issue: round.issue }), result: null, rolling: true };
    } else if ((phase === 'rest' || phase === 'next') && data.result) {
      board = { label: t('rounds.result.current', { issue: round.issue }), result: data.result, rolling: false };
    } else if (data.previous) {
      board = { label: t('rounds.result.previous', { issue: data.previous.issue }), result: data.previous, rolling: false };
    }
  }
  const shownResult = board?.result ?? null;
  const drawnNow = round !== null && shownResult?.issue === round.issue && watchedDraw === round.issue;

  return (
    <main className="page window-page" data-window={id} data-phase={phase ?? 'none'}>
      {header}
      {round && position ? (
        <section className="round-card" aria-labelledby="round-issue">
          <div className="round-card__top">
            <h2 id="round-issue" className="round-card__issue">
              {t('rounds.issue', { issue: round.issue })}
            </h2>
            <PhaseBadge phase={position.phase} />
          </div>
          <div className="round-card__timer" ref={timer}>
            <span className="round-card__timer-label">{t(`rounds.phaseEnds.${position.phase}`)}</span>
            <Countdown remaining={position.deadline - now} className="countdown countdown--large" />
          </div>
          <div
            className="round-card__progress"
            role="progressbar"
            aria-label={t(`rounds.phase.${position.phase}`)}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={position.length > 0 ? Math.round(100 - ((position.deadline - now) / position.length) * 100) : 100}
          >
            <span
              className={`round-card__progress-bar round-card__progress-bar--${position.phase}`}
              style={{
                width: `${position.length > 0 ? Math.min(100, Math.max(0, 100 - ((position.deadline - now) / position.length) * 100)) : 100}%`,
              }}
            />
          </div>
          {board ? (
            <div className="round-card__result">
              <p className="round-card__result-label">{board.label}</p>
              <ResultDigits
                digits={board.rolling ? null : (shownResult?.digits ?? null)}
                {...(shownResult ? { sum: shownResult.sum, outcome: shownResult.outcome } : {})}
                reveal={drawnNow}
              />
            </div>
          ) : null}
          {(phase === 'rest' || phase === 'next') && data?.result ? <WinLoseBanner bets={data.myBets} /> : null}
        </section>
      ) : (
        <EmptyState title={t('rounds.noRoundYet')} text={t('rounds.noRoundYetText')} />
      )}

      {round && position && pinned ? (
        <div className="round-pin" data-testid="round-pin">
          <span className="round-pin__issue">{t('rounds.issue', { issue: round.issue })}</span>
          <PhaseBadge phase={position.phase} />
          <Countdown remaining={position.deadline - now} className="countdown round-pin__countdown" />
        </div>
      ) : null}

      <section className="window-stats" aria-label={t('rounds.stats.title')}>
        {stats.map(({ name, label, value }) => (
          <div key={name} className="window-stats__item">
            <span className="window-stats__value" data-stat={name}>
              {value ?? '—'}
            </span>
            <span className="window-stats__label">{label}</span>
          </div>
        ))}
      </section>

      {round && data?.coming ? (
        <p className="window-coming" role="status" data-testid="coming-rules" data-odds={data.coming.odds}>
          {t('rounds.coming', {
            odds: data.coming.odds,
            min: formatMoney(data.coming.minBet, t),
            max: formatMoney(data.coming.maxBet, t),
            oldOdds: round.odds,
            oldMin: formatMoney(round.minBet, t),
            oldMax: formatMoney(round.maxBet, t),
          })}
        </p>
      ) : null}
      {round ? <BetPanel round={round} open={phase === 'betting' && round.phase === 'betting'} balance={balance} /> : null}
      <PlayGuard />

      <div className="window-tabs" role="tablist" aria-label={t('rounds.tabs.label')}>
        {(['bets', 'history', 'trend', 'fairness', 'rules'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`window-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`window-panel-${name}`}
            className={`window-tabs__tab${tab === name ? ' window-tabs__tab--active' : ''}`}
            onClick={() => {
              setTab(name);
            }}
          >
            {t(`rounds.tabs.${name}`)}
          </button>
        ))}
      </div>
      <section id={`window-panel-${tab}`} role="tabpanel" aria-labelledby={`window-tab-${tab}`} className="window-panel">
        {tab === 'bets' ? round && data ? <MyBets bets={data.myBets} issue={round.issue} /> : null : null}
        {tab === 'history' ? <HistoryList windowId={id} /> : null}
        {tab === 'trend' ? <TrendBoard windowId={id} /> : null}
        {tab === 'fairness' ? <FairnessPanel windowId={id} /> : null}
        {tab === 'rules' ? (
          <div className="rules-text">
            {windowRules ? <p>{windowRules.text}</p> : null}
            {rules.data ? <p>{rules.data.fairness}</p> : <p className="muted-note">{t('common.loading')}</p>}
          </div>
        ) : null}
      </section>
    </main>
  );
}

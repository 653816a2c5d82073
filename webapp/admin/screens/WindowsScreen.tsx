/**
 * Windows: each window's live phase and countdown, its odds, limits and phase lengths (admins
 * change them; the change applies from the next round), and the round history with revealed
 * seeds, per-round bets and the house result.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { CurrentRound, Page, ResultView, RoundBets, WindowRules } from '../api/types';
import { useT, type TextKey } from '../i18n/useT';
import { sessionAtom } from '../state/session';
import { verifyRound } from '../../src/features/rounds/fairness';
import { parseAmount } from '../../src/format/amount';
import { dateTime, money, seconds } from '../ui/format';
import { Button, Card, ConfirmDialog, DataTable, Empty, Field, Pager, ui } from '../ui/kit';
import { showToast } from '../ui/toast';
import css from './screens.module.css';

export function WindowsScreen() {
  const { t } = useT();
  // Polled: which round the settings apply from moves on as rounds are created.
  const windows = useQuery({ queryKey: ['windows'], queryFn: () => api<WindowRules[]>('/admin/windows'), refetchInterval: 5_000 });
  const [selected, setSelected] = useState<number | null>(null);
  if (windows.isError) return <p className={ui.error}>{t('common.loadFailed')}</p>;
  if (!windows.data) return null;
  if (windows.data.length === 0) return <Empty>{t('windows.none')}</Empty>;
  const active = selected ?? windows.data[0]!.windowId;
  return (
    <div className={css.stack}>
      <div className={css.grid4}>
        {windows.data.map((w) => (
          <WindowCard key={w.windowId} rules={w} selected={w.windowId === active} onSelect={() => { setSelected(w.windowId); }} />
        ))}
      </div>
      <History windowId={active} />
    </div>
  );
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => { setNow(Date.now()); }, 250);
    return () => { clearInterval(id); };
  }, []);
  return now;
}

function WindowCard({ rules, selected, onSelect }: { rules: WindowRules; selected: boolean; onSelect: () => void }) {
  const { t } = useT();
  const session = useAtomValue(sessionAtom);
  const [editing, setEditing] = useState(false);
  const current = useQuery({
    queryKey: ['window-current', rules.windowId],
    queryFn: async () => {
      const c = await api<CurrentRound>('/activation/getNewLottery', { windowId: rules.windowId });
      return { ...c, offset: c.serverTime - Date.now() };
    },
    refetchInterval: 2_000,
    enabled: rules.enabled,
  });
  const now = useNow();
  const round = current.data?.round;
  const left = round && current.data ? Math.max(0, Math.ceil((round.deadline - (now + current.data.offset)) / 1000)) : null;
  return (
    <Card
      title={`${t('windows.window')} ${rules.windowId}`}
      actions={
        <Button small variant={selected ? 'primary' : 'default'} onClick={onSelect}>
          {t('windows.history')}
        </Button>
      }
    >
      <div data-testid={`window-${rules.windowId}`}>
        {!rules.enabled && <span className={[ui.badge, ui.badgeWarn].join(' ')}>{t('windows.disabled')}</span>}
        {round && (
          <div className={css.stat}>
            <span className={css.phase}>
              {t(`phases.${round.phase}` as 'phases.betting')} · {round.issue}
            </span>
            <span className={css.countdown} aria-label={t('windows.countdown')}>
              {left}s
            </span>
            <span className={css.statSub} data-testid="round-odds">
              {t('windows.roundOdds')}: {round.odds} · {t('windows.betsCount', { count: round.ordersCount })} · {money(round.totalPoints)}
            </span>
          </div>
        )}
        {rules.current ? (
          <dl className={ui.kv} style={{ marginTop: 12 }} data-testid="rules-current">
            <dt>{t('windows.currentRound')}</dt>
            <dd className={ui.mono}>{rules.current.issue}</dd>
            <dt>{t('windows.odds')}</dt>
            <dd data-testid="current-odds">{rules.current.odds}</dd>
            <dt>{t('windows.limits')}</dt>
            <dd data-testid="current-limits">
              {money(rules.current.minBet)} – {money(rules.current.maxBet)}
            </dd>
          </dl>
        ) : null}
        {/* The heading is outside the list: as one of its terms, "From round <17 digits>" made
            the terms' column as wide as the card and squeezed the values to nothing. */}
        <div style={{ marginTop: 12 }} data-testid="rules-settings" data-pending={rules.pending ? 'true' : 'false'}>
          <p className={ui.muted} style={{ margin: '0 0 6px', fontSize: 13, overflowWrap: 'anywhere' }}>
            {rules.pending && rules.fromIssue ? t('windows.fromRound', { issue: rules.fromIssue }) : t('windows.settings')}
          </p>
          <dl className={ui.kv}>
            <dt>{t('windows.odds')}</dt>
            <dd data-testid="rules-odds">{rules.odds}</dd>
            <dt>{t('windows.limits')}</dt>
            <dd data-testid="rules-limits">
              {money(rules.minBet)} – {money(rules.maxBet)}
            </dd>
            <dt>{t('windows.phases')}</dt>
            <dd>
              {seconds(rules.bettingMs)}s / {seconds(rules.drawingMs)}s / {seconds(rules.restMs)}s
            </dd>
          </dl>
        </div>
        {session?.role === 'admin' && (
          <div style={{ marginTop: 12 }}>
            <Button small onClick={() => { setEditing(true); }} data-testid="edit-rules">
              {t('windows.edit')}
            </Button>
          </div>
        )}
      </div>
      {editing && <RulesDialog rules={rules} onClose={() => { setEditing(false); }} />}
    </Card>
  );
}

function RulesDialog({ rules, onClose }: { rules: WindowRules; onClose: () => void }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [odds, setOdds] = useState(rules.odds);
  const [minBet, setMinBet] = useState(money(rules.minBet).replace(/,/g, ''));
  const [maxBet, setMaxBet] = useState(money(rules.maxBet).replace(/,/g, ''));
  const [betting, setBetting] = useState(seconds(rules.bettingMs));
  const [drawing, setDrawing] = useState(seconds(rules.drawingMs));
  const [rest, setRest] = useState(seconds(rules.restMs));
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState<object | null>(null);
  const save = useMutation({
    mutationFn: (body: object) => api<WindowRules>('/admin/windows/update', { windowId: rules.windowId, ...body }),
    onSuccess: () => {
      showToast(t('windows.saved'));
      void qc.invalidateQueries({ queryKey: ['windows'] });
      onClose();
    },
  });
  const review = () => {
    // The limits mean exactly what was typed (at most two decimals), or are refused with why.
    const min = parseAmount(minBet);
    const max = parseAmount(maxBet);
    for (const [label, parsed] of [[t('windows.minBet'), min], [t('windows.maxBet'), max]] as const) {
      if (!parsed.ok) {
        setError(`${label}: ${t(`amount.${parsed.problem}` as 'amount.decimals')}`);
        return;
      }
    }
    const ms = [betting, drawing, rest].map((s) => Math.round(Number(s) * 1000));
    if (!/^\d+(\.\d{1,4})?$/.test(odds.trim())) {
      setError(t('windows.oddsInvalid'));
      return;
    }
    if (!min.ok || !max.ok || ms.some((v) => !Number.isFinite(v) || v <= 0)) {
      setError(t('windows.invalid'));
      return;
    }
    setError('');
    setConfirming({ odds: odds.trim(), minBet: min.cents, maxBet: max.cents, bettingMs: ms[0], drawingMs: ms[1], restMs: ms[2] });
  };
  const fields: [name: string, label: TextKey, value: string, set: (v: string) => void][] = [
    ['odds', 'windows.odds', odds, setOdds],
    ['minBet', 'windows.minBet', minBet, setMinBet],
    ['maxBet', 'windows.maxBet', maxBet, setMaxBet],
    ['betting', 'windows.bettingS', betting, setBetting],
    ['drawing', 'windows.drawingS', drawing, setDrawing],
    ['rest', 'windows.restS', rest, setRest],
  ];
  if (confirming)
    return (
      <ConfirmDialog
        title={t('windows.confirmTitle', { id: rules.windowId })}
        message={t('windows.confirmText', { odds: odds.trim(), min: minBet, max: maxBet, betting, drawing, rest })}
        onConfirm={() => save.mutateAsync(confirming)}
        onClose={onClose}
      />
    );
  return (
    <div className={ui.overlay} onClick={onClose}>
      <div className={ui.dialog} role="dialog" aria-modal="true" aria-label={t('windows.edit')} onClick={(e) => { e.stopPropagation(); }}>
        <h2>
          {t('windows.edit')} · {t('windows.window')} {rules.windowId}
        </h2>
        <p className={ui.muted}>{t('windows.nextRound')}</p>
        <div className={ui.formGrid}>
          {fields.map(([name, label, value, set]) => (
            <Field key={name} label={t(label)}>
              <input className={ui.input} name={name} value={value} onChange={(e) => { set(e.target.value); }} />
            </Field>
          ))}
        </div>
        {error && <p className={ui.error}>{error}</p>}
        <div className={ui.dialogActions}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" onClick={review} data-testid="rules-save">
            {t('common.save')}
          </Button>
        </div>
      </div>
    </div>
  );
}

function History({ windowId }: { windowId: number }) {
  const { t } = useT();
  const [page, setPage] = useState(1);
  const [issue, setIssue] = useState<string | null>(null);
  const history = useQuery({
    queryKey: ['window-history', windowId, page],
    queryFn: () => api<Page<ResultView>>('/activation/historyPrize', { windowId, page, pageSize: 10 }),
    refetchInterval: 10_000,
  });
  return (
    <div className={css.split}>
      <Card title={t('windows.historyOf', { id: windowId })}>
        {history.data?.list.length === 0 && <Empty>{t('common.empty')}</Empty>}
        {history.data?.list.length ? (
          <DataTable columns={[t('windows.issue'), t('windows.digits'), t('windows.result'), t('windows.seed'), t('windows.drawnAt')]}>
            {history.data.list.map((r) => (
              <tr key={r.issue} className={[ui.clickable, r.issue === issue && ui.selected].filter(Boolean).join(' ')} onClick={() => { setIssue(r.issue); }}>
                <td className={ui.mono} style={{ whiteSpace: 'nowrap' }}>
                  {r.issue}
                </td>
                <td className={css.digits}>
                  {r.digits.join(' + ')} = {r.sum}
                </td>
                <td>{r.outcome.map((o) => t(`contents.${o}` as 'contents.BIG')).join(' · ')}</td>
                <td className={ui.mono} title={r.seedHash}>
                  {r.serverSeed.slice(0, 16)}…
                </td>
                <td>{dateTime(r.drawnAt)}</td>
              </tr>
            ))}
          </DataTable>
        ) : null}
        {history.data && <Pager page={page} pageSize={10} total={history.data.total} onPage={setPage} />}
      </Card>
      <div>{issue ? <RoundDetail windowId={windowId} issue={issue} /> : <Card><Empty>{t('windows.pickRound')}</Empty></Card>}</div>
    </div>
  );
}

/** Stakes of a round's bets summed by what was bet on, in the order of the contents. */
function stakesByContent(bets: RoundBets['bets']): { content: string; count: number; amount: number }[] {
  const by = new Map<string, { content: string; count: number; amount: number }>();
  for (const b of bets) {
    const row = by.get(b.content) ?? { content: b.content, count: 0, amount: 0 };
    row.count += 1;
    row.amount += b.amount;
    by.set(b.content, row);
  }
  return [...by.values()];
}

/** The round's proof checked in this browser, as the app's verify does (docs/ROUNDS.md). */
function Proof({ result }: { result: NonNullable<RoundBets['result']> }) {
  const { t } = useT();
  const check = useQuery({
    queryKey: ['round-proof', result.windowId, result.issue, result.serverSeed],
    queryFn: () => verifyRound({ ...result, digits: result.digits as [number, number, number] }),
    retry: false,
  });
  if (check.isPending) return <span className={ui.muted}>…</span>;
  if (check.isError) return <span className={ui.muted}>{t('windows.proofUnavailable')}</span>;
  return check.data.verified ? (
    <span className={[ui.badge, ui.badgeOk].join(' ')} data-testid="round-proof">{t('windows.proofOk')}</span>
  ) : (
    <span className={[ui.badge, ui.badgeWarn].join(' ')} data-testid="round-proof">{t('windows.proofBad')}</span>
  );
}

function RoundDetail({ windowId, issue }: { windowId: number; issue: string }) {
  const { t } = useT();
  const round = useQuery({ queryKey: ['round-bets', windowId, issue], queryFn: () => api<RoundBets>('/admin/round/bets', { windowId, issue }) });
  if (round.isError) return <Card><p className={ui.error}>{t('common.loadFailed')}</p></Card>;
  if (!round.data) return null;
  const r = round.data;
  return (
    <Card title={<span style={{ whiteSpace: 'nowrap' }} data-testid="round-title">{`${t('windows.issue')} ${issue}`}</span>}>
      <dl className={ui.kv}>
        <dt>{t('windows.odds')}</dt>
        <dd>{r.odds}</dd>
        {r.result && (
          <>
            <dt>{t('windows.digits')}</dt>
            <dd className={css.digits}>
              {r.result.digits.join(' + ')} = {r.result.sum}
            </dd>
            <dt>{t('windows.result')}</dt>
            <dd>{r.result.outcome.map((o) => t(`contents.${o}` as 'contents.BIG')).join(' · ')}</dd>
            <dt>{t('windows.drawnAt')}</dt>
            <dd>{dateTime(r.result.drawnAt)}</dd>
            <dt>{t('windows.proof')}</dt>
            <dd>
              <Proof result={r.result} />
            </dd>
            <dt>{t('windows.seedHash')}</dt>
            <dd className={ui.mono}>{r.result.seedHash}</dd>
            <dt>{t('windows.seed')}</dt>
            <dd className={ui.mono}>{r.result.serverSeed}</dd>
          </>
        )}
        <dt>{t('windows.staked')}</dt>
        <dd>{money(r.staked)}</dd>
        <dt>{t('windows.paidOut')}</dt>
        <dd>{money(r.paidOut)}</dd>
        <dt>{t('windows.house')}</dt>
        <dd>{money(r.staked - r.paidOut)}</dd>
        <dt>{t('windows.bets')}</dt>
        <dd data-testid="round-totals">
          {t('windows.betsCount', { count: r.bets.length })}
          {stakesByContent(r.bets).map((c) => (
            <div key={c.content}>
              {t(`contents.${c.content}` as 'contents.BIG')}: {c.count} · {money(c.amount)}
            </div>
          ))}
        </dd>
      </dl>
      <h3 className={css.subTitle}>{t('windows.bets')}</h3>
      {r.bets.length === 0 ? (
        <Empty>{t('common.empty')}</Empty>
      ) : (
        <DataTable columns={[t('orders.account'), t('windows.content'), { label: t('orders.amount'), num: true }, t('windows.result'), { label: t('windows.payout'), num: true }]}>
          {r.bets.map((b) => (
            <tr key={b.betId}>
              <td>{b.account}</td>
              <td>{t(`contents.${b.content}` as 'contents.BIG')}</td>
              <td className={ui.num}>{money(b.amount)}</td>
              <td>{b.result ? t(b.result === 'win' ? 'windows.win' : 'windows.lose') : t('windows.open')}</td>
              <td className={ui.num}>{money(b.payout)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}

/**
 * The dashboard: today's and the last 7 days' figures from the store — registrations, active
 * users, recharge and exchange totals, bets and the house result per window (from the ledger),
 * online sockets — as charts and numbers. Refreshed every minute (each refresh reads the week's ledger transfers).
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import type { Dashboard, WindowFigures } from '../api/types';
import { useT } from '../i18n/useT';
import { BarChart, LineChart } from '../ui/Chart';
import { money } from '../ui/format';
import { Card, ui } from '../ui/kit';
import css from './screens.module.css';

const BLUE = '#315aff';
const GREEN = '#17915a';
const ORANGE = '#e08a00';
const RED = '#d03239';

function Stat({ label, value, sub, testId, alert }: { label: string; value: string; sub?: ReactNode; testId?: string; alert?: boolean }) {
  return (
    <div className={[ui.card, css.stat, alert ? css.statAlert : ''].join(' ')}>
      <span className={ui.muted}>{label}</span>
      <span className={css.statValue} data-testid={testId}>
        {value}
      </span>
      {sub && <span className={css.statSub}>{sub}</span>}
    </div>
  );
}

export function DashboardScreen() {
  const { t } = useT();
  const dash = useQuery({ queryKey: ['dashboard'], queryFn: () => api<Dashboard>('/admin/dashboard', { days: 7 }), refetchInterval: 60_000 });
  if (dash.isError) return <p className={ui.error}>{t('common.loadFailed')}</p>;
  if (!dash.data) return null;
  const d = dash.data;
  const today = d.days[d.days.length - 1];
  const week = d.days.reduce(
    (s, x) => ({
      registrations: s.registrations + x.registrations,
      rechargeTotal: s.rechargeTotal + x.rechargeTotal,
      exchangeTotal: s.exchangeTotal + x.exchangeTotal,
    }),
    { registrations: 0, rechargeTotal: 0, exchangeTotal: 0 },
  );
  const label = (day: string) => day.slice(5);
  const windowPoints = (list: WindowFigures[]) =>
    list.map((w) => ({ label: `${t('windows.window')} ${w.windowId}`, values: [w.staked / 100, w.paidOut / 100, w.houseResult / 100] }));
  const windowSeries = [
    { name: t('dashboard.staked'), color: BLUE },
    { name: t('dashboard.paidOut'), color: ORANGE },
    { name: t('dashboard.house'), color: GREEN },
  ];
  const houseToday = d.windowsToday.reduce((s, w) => s + w.houseResult, 0);
  const houseWeek = d.windowsWeek.reduce((s, w) => s + w.houseResult, 0);
  return (
    <div className={css.stack}>
      <div className={css.gridStats}>
        <Stat label={t('dashboard.registrations')} value={String(today?.registrations ?? 0)} sub={t('dashboard.week', { value: week.registrations })} testId="stat-registrations" />
        <Stat label={t('dashboard.activeUsers')} value={String(today?.activeUsers ?? 0)} sub={t('dashboard.online', { chat: d.chatSockets, customer: d.customerSockets })} testId="stat-active" />
        <Stat label={t('dashboard.recharges')} value={money(today?.rechargeTotal ?? 0)} sub={t('dashboard.weekMoney', { value: money(week.rechargeTotal), pending: d.pendingRecharges })} testId="stat-recharges" />
        <Stat label={t('dashboard.exchanges')} value={money(today?.exchangeTotal ?? 0)} sub={t('dashboard.weekMoney', { value: money(week.exchangeTotal), pending: d.pendingExchanges })} testId="stat-exchanges" />
        <Stat
          label={t('dashboard.unclaimed')}
          value={String(d.unclaimedEnquiries)}
          sub={<Link to="/customer">{t('dashboard.unclaimedOpen')}</Link>}
          testId="stat-unclaimed"
          alert={d.unclaimedEnquiries > 0}
        />
      </div>
      <div className={css.grid2}>
        <Card title={t('dashboard.usersChart')}>
          <LineChart
            label={t('dashboard.usersChart')}
            points={d.days.map((x) => ({ label: label(x.day), values: [x.registrations, x.activeUsers] }))}
            series={[
              { name: t('dashboard.registrations'), color: BLUE },
              { name: t('dashboard.activeUsers'), color: GREEN },
            ]}
          />
        </Card>
        <Card title={t('dashboard.moneyChart')}>
          <BarChart
            label={t('dashboard.moneyChart')}
            format={(v) => v.toLocaleString('en-US', { maximumFractionDigits: 0 })}
            points={d.days.map((x) => ({ label: label(x.day), values: [x.rechargeTotal / 100, x.exchangeTotal / 100] }))}
            series={[
              { name: t('dashboard.recharges'), color: GREEN },
              { name: t('dashboard.exchanges'), color: RED },
            ]}
          />
        </Card>
        <Card title={t('dashboard.windowsToday', { house: money(houseToday) })}>
          <BarChart label={t('dashboard.windowsToday', { house: money(houseToday) })} points={windowPoints(d.windowsToday)} series={windowSeries} />
        </Card>
        <Card title={t('dashboard.windowsWeek', { house: money(houseWeek) })}>
          <BarChart label={t('dashboard.windowsWeek', { house: money(houseWeek) })} points={windowPoints(d.windowsWeek)} series={windowSeries} />
        </Card>
      </div>
    </div>
  );
}

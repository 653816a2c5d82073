/**
 * Users: search by account, nickname, phone or id; a user's profile, balance, ledger entries,
 * bets, orders, bank cards and sign-ins; activate membership, freeze / unfreeze sign-in and
 * reset the fund password, each behind a confirmation.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import type { AdminUser, LedgerEntry, Order, Page, UserDetail } from '../api/types';
import { useT, type TextKey } from '../i18n/useT';
import { dateTime, money } from '../ui/format';
import { downloadCsv, type CsvExport } from '../ui/download';
import { Card, ConfirmButton, DataTable, Empty, ListTable, OrderStatus, Pager, SearchForm, Tabs, ui, useFailToast } from '../ui/kit';
import { showToast } from '../ui/toast';
import css from './screens.module.css';

export function UsersScreen() {
  const { t } = useT();
  const { userId } = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [activation, setActivation] = useState('');
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: ['users', search, activation, page],
    queryFn: () =>
      api<Page<AdminUser>>('/admin/users', {
        keyword: search,
        page,
        pageSize: 20,
        ...(activation === '' ? {} : { isActivation: Number(activation) }),
      }),
  });
  return (
    <div className={css.split}>
      <Card title={t('nav.users')}>
        <SearchForm
          hint={t('users.searchHint')}
          onSearch={(keyword) => {
            setSearch(keyword);
            setPage(1);
          }}
        >
          <select
            className={ui.select}
            value={activation}
            aria-label={t('users.activation')}
            onChange={(e) => {
              setActivation(e.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('users.anyActivation')}</option>
            <option value="1">{t('users.activated')}</option>
            <option value="0">{t('users.notActivated')}</option>
          </select>
        </SearchForm>
        <ListTable
          query={users}
          columns={[t('users.account'), t('users.nickname'), t('users.phone'), t('users.activation'), t('users.createdAt')]}
          row={(u) => (
            <tr
              key={u.userId}
              className={[ui.clickable, u.userId === userId && ui.selected].filter(Boolean).join(' ')}
              onClick={() => void navigate(`/users/${u.userId}`)}
              data-account={u.account}
            >
              <td>
                {u.account}
                {u.isOperator === 1 && <span className={ui.badge}> {t('users.operator')}</span>}
              </td>
              <td>{u.nickName}</td>
              <td>{u.phone || '—'}</td>
              <td>{u.isActivation ? <span className={[ui.badge, ui.badgeOk].join(' ')}>{t('users.activated')}</span> : t('users.notActivated')}</td>
              <td>{dateTime(u.createdAt)}</td>
            </tr>
          )}
        />
        {users.data && <Pager page={page} pageSize={20} total={users.data.total} onPage={setPage} />}
      </Card>
      <div>{userId ? <UserPanel userId={userId} /> : <Card><Empty>{t('users.pick')}</Empty></Card>}</div>
    </div>
  );
}

type Section = 'entries' | 'bets' | 'orders' | 'cards' | 'signins';

function UserPanel({ userId }: { userId: string }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [section, setSection] = useState<Section>('entries');
  const detail = useQuery({ queryKey: ['user', userId], queryFn: () => api<UserDetail>('/admin/user/detail', { userId }) });
  const act = useMutation({
    mutationFn: ({ path, body }: { path: string; body: object }) => api(path, { userId, ...body }),
    onSuccess: () => {
      showToast(t('common.done'));
      void qc.invalidateQueries({ queryKey: ['user', userId] });
      void qc.invalidateQueries({ queryKey: ['users'] });
    },
  });
  if (detail.isError) return <Card><p className={ui.error}>{t('common.loadFailed')}</p></Card>;
  if (!detail.data) return null;
  const d = detail.data;
  const u = d.user;
  return (
    <div className={css.stack}>
      <Card title={`${u.nickName || u.account} (${u.account})`}>
        <dl className={ui.kv}>
          <dt>{t('users.userId')}</dt>
          <dd className={ui.mono}>{u.userId}</dd>
          <dt>{t('users.balance')}</dt>
          <dd data-testid="user-balance">{money(d.balance)}</dd>
          <dt>{t('users.phone')}</dt>
          <dd>{u.phone || '—'}</dd>
          <dt>{t('users.activation')}</dt>
          <dd data-testid="user-activation">{u.isActivation ? t('users.activated') : t('users.notActivated')}</dd>
          <dt>{t('users.signInState')}</dt>
          <dd data-testid="user-frozen">{d.frozen ? t('users.frozen') : t('users.normal')}</dd>
          <dt>{t('users.fundPassword')}</dt>
          <dd>{d.hasFundPassword ? t('users.set') : t('users.notSet')}</dd>
          <dt>{t('users.inviteCode')}</dt>
          <dd className={ui.mono}>{u.inviteCode}</dd>
          <dt>{t('users.createdAt')}</dt>
          <dd>{dateTime(u.createdAt)}</dd>
          {d.pendingExchange > 0 && (
            <>
              <dt>{t('users.pendingExchange')}</dt>
              <dd>{money(d.pendingExchange)}</dd>
            </>
          )}
          <dt>{t('users.lastLogin')}</dt>
          <dd>
            {dateTime(u.lastLoginAt)} {u.lastLoginIp}
          </dd>
        </dl>
        <div className={ui.toolbar} style={{ marginTop: 16 }}>
          {d.role === '' && (
          <ConfirmButton
            label={u.isActivation ? t('users.deactivate') : t('users.activate')}
            variant={u.isActivation ? 'default' : 'primary'}
            testId="user-activate"
            options={{
              title: u.isActivation ? t('users.deactivate') : t('users.activate'),
              message: t(u.isActivation ? 'users.deactivateText' : 'users.activateText', { account: u.account }),
              onConfirm: () => act.mutateAsync({ path: '/admin/activateUser', body: { isActivation: u.isActivation ? 0 : 1 } }),
            }}
          />
          )}
          {d.role === '' && (
            <>
          <ConfirmButton
            label={d.frozen ? t('users.unfreeze') : t('users.freeze')}
            variant={d.frozen ? 'default' : 'danger'}
            testId="user-freeze"
            options={{
              title: d.frozen ? t('users.unfreeze') : t('users.freeze'),
              message: t(d.frozen ? 'users.unfreezeText' : 'users.freezeText', { account: u.account }),
              reason: d.frozen ? 'optional' : true,
              danger: !d.frozen,
              onConfirm: (reason) => act.mutateAsync({ path: '/admin/user/freeze', body: { frozen: d.frozen ? 0 : 1, reason } }),
            }}
          />
          <ConfirmButton
            label={t('users.resetFund')}
            disabled={!d.hasFundPassword}
            testId="user-reset-fund"
            options={{
              title: t('users.resetFund'),
              message: t('users.resetFundText', { account: u.account }),
              reason: 'optional',
              danger: true,
              onConfirm: (reason) => act.mutateAsync({ path: '/admin/user/resetFundPassword', body: { reason } }),
            }}
          />
            </>
          )}
        </div>
      </Card>
      <Card>
        <Tabs
          value={section}
          onChange={setSection}
          options={[
            { value: 'entries', label: t('users.entries') },
            { value: 'bets', label: t('users.bets') },
            { value: 'orders', label: t('users.orders') },
            { value: 'cards', label: t('users.cards') },
            { value: 'signins', label: t('users.signIns') },
          ]}
        />
        {section === 'entries' && <UserLedger userId={userId} />}
        {section === 'bets' && (
          <Rows
            empty={d.bets.length === 0}
            head={[t('windows.window'), t('windows.issue'), t('windows.content'), t('orders.amount'), t('windows.result'), t('windows.payout')]}
            rows={d.bets.map((b) => [
              String(b.windowId),
              b.issue,
              t(`contents.${b.content}` as TextKey),
              money(b.amount),
              b.result ? t(b.result === 'win' ? 'windows.win' : 'windows.lose') : t('windows.open'),
              money(b.payout),
            ])}
          />
        )}
        {section === 'orders' && <UserOrders recharges={d.recharges} exchanges={d.exchanges} />}
        {section === 'cards' && (
          <Rows
            empty={d.bankCards.length === 0}
            head={[t('orders.bank'), t('orders.holder'), t('orders.card'), t('users.time')]}
            rows={d.bankCards.map((c) => [c.bankName, c.holderName, c.cardNumber, dateTime(c.createdAt)])}
          />
        )}
        {section === 'signins' && (
          <Rows
            empty={d.signIns.length === 0}
            head={[t('users.time'), t('users.platform'), t('users.sessionState')]}
            rows={d.signIns.map((s) => [dateTime(s.createdAt), t(`platforms.p${s.platform}` as TextKey), t(`sessionStates.s${s.state}` as TextKey)])}
          />
        )}
      </Card>
    </div>
  );
}

function UserOrders({ recharges, exchanges }: { recharges: Order[]; exchanges: Order[] }) {
  const { t } = useT();
  const all = [...recharges.map((o) => ({ o, kind: t('kinds.recharge') })), ...exchanges.map((o) => ({ o, kind: t('kinds.exchange') }))].sort(
    (a, b) => b.o.createdAt - a.o.createdAt,
  );
  if (all.length === 0) return <Empty>{t('common.empty')}</Empty>;
  return (
    <DataTable columns={[t('users.kind'), t('orders.orderNo'), { label: t('orders.amount'), num: true }, t('orders.status'), t('users.time')]}>
      {all.map(({ o, kind }) => (
        <tr key={o.id}>
          <td>{kind}</td>
          <td className={ui.mono}>{o.orderNo}</td>
          <td className={ui.num}>{money(o.amount)}</td>
          <td>
            <OrderStatus status={o.status} />
          </td>
          <td>{dateTime(o.createdAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** A long reference (a transfer or order id) shortened to its ends; the whole one is the cell's title. */
function shortRef(ref: string): string {
  return ref.length > 14 ? `${ref.slice(0, 6)}…${ref.slice(-6)}` : ref;
}

/**
 * A detail table in the narrow column: cells stay on one line and the table scrolls sideways
 * inside its box rather than squeezing columns to a character each (issue 35 #13).
 */
/** The user's wallet records: a range of days (the server's day zone), paged, and exported as CSV. */
function UserLedger({ userId }: { userId: string }) {
  const { t } = useT();
  const [range, setRange] = useState({ from: '', to: '' });
  const [page, setPage] = useState(1);
  const filter = { userId, from: range.from, to: range.to };
  // Under ['user', userId], so an action on the user refreshes it with the detail.
  const ledger = useQuery({
    queryKey: ['user', userId, 'ledger', range, page],
    queryFn: () => api<Page<LedgerEntry>>('/admin/user/ledger', { ...filter, page, pageSize: 20 }),
  });
  const fail = useFailToast();
  const exportCsv = useMutation({
    mutationFn: () => api<CsvExport>('/admin/user/ledger/export', filter),
    onSuccess: (out) => {
      downloadCsv(out);
      showToast(t('orders.exported', { count: out.rows, file: out.fileName }));
    },
    onError: fail,
  });
  const setDay = (side: 'from' | 'to') => (e: { target: { value: string } }) => {
    setRange({ ...range, [side]: e.target.value });
    setPage(1);
  };
  const list = ledger.data?.list ?? [];
  return (
    <>
      <div className={ui.toolbar} style={{ margin: '12px 0' }}>
        <input className={ui.input} type="date" aria-label={t('orders.from')} title={t('orders.from')} data-testid="ledger-from" value={range.from} max={range.to || undefined} onChange={setDay('from')} />
        <input className={ui.input} type="date" aria-label={t('orders.to')} title={t('orders.to')} data-testid="ledger-to" value={range.to} min={range.from || undefined} onChange={setDay('to')} />
        <button type="button" className={ui.button} data-testid="ledger-export" disabled={exportCsv.isPending} onClick={() => { exportCsv.mutate(); }}>
          {t('orders.export')}
        </button>
      </div>
      {ledger.isError ? (
        <p className={ui.error}>{t('common.loadFailed')}</p>
      ) : ledger.data && (
        <>
          <Rows
            empty={list.length === 0}
            head={[t('users.kind'), t('orders.amount'), t('users.balanceAfter'), t('users.ref'), t('users.time')]}
            rows={list.map((e) => [t(`kinds.${e.kind}` as TextKey), money(e.amount), money(e.balanceAfter), shortRef(e.ref), dateTime(e.createdAt)])}
            titles={list.map((e) => e.ref)}
            testId="user-ledger"
          />
          <Pager page={page} pageSize={ledger.data.pageSize} total={ledger.data.total} onPage={setPage} />
        </>
      )}
    </>
  );
}

function Rows({ head, rows, empty, titles, testId }: { head: string[]; rows: string[][]; empty: boolean; titles?: string[]; testId?: string }) {
  const { t } = useT();
  if (empty) return <Empty>{t('common.empty')}</Empty>;
  return (
    <div className={css.scrollX} data-testid={testId}>
      <table className={ui.table}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} title={titles?.[i]}>
              {r.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

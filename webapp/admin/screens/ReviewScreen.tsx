/**
 * The recharge and exchange review queues: pending orders first (the default tab), filters by
 * status, search by account or order number, the order's details beside the list with the
 * user's balance and recent history, and confirm / fail with a reason. The list polls every
 * 5 s, so a new order shows up without a reload.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import type { Order, Page, UserDetail } from '../api/types';
import { useT } from '../i18n/useT';
import { money, dateTime } from '../ui/format';
import { downloadCsv, type CsvExport } from '../ui/download';
import { Card, ConfirmButton, CopyButton, Empty, ListTable, OrderStatus, Pager, SearchForm, Tabs, ui, useFailToast } from '../ui/kit';
import { showToast } from '../ui/toast';
import css from './screens.module.css';

export type ReviewKind = 'recharge' | 'exchange';

const POLL_MS = 5_000;

/** Block explorers for a transaction hash, by the recharge's protocol. */
function explorer(protocol: string | undefined, hash: string): string | null {
  if (!hash) return null;
  if (protocol === 'TRC20') return `https://tronscan.org/#/transaction/${encodeURIComponent(hash)}`;
  if (protocol === 'ERC20') return `https://etherscan.io/tx/${encodeURIComponent(hash)}`;
  return null;
}

export function ReviewScreen({ kind }: { kind: ReviewKind }) {
  const { t } = useT();
  // ?q=<order number> (the audit log's link to an order) opens the search on that order, in any state.
  const [params] = useSearchParams();
  const linked = params.get('q') ?? '';
  const [status, setStatus] = useState(linked ? 'all' : '0');
  const [search, setSearch] = useState(linked);
  const [range, setRange] = useState({ from: '', to: '' });
  const [page, setPage] = useState(1);
  // The order stays on screen after a review moves it out of the list being shown.
  const [selected, setSelected] = useState<Order | null>(null);
  // Any part of the order number, tx hash, account or nickname; days (both included) in the server's day zone.
  const filter = { kind, status: status === 'all' ? undefined : Number(status), keyword: search, from: range.from, to: range.to };
  const key = ['orders', kind, status, search, range, page];
  const orders = useQuery({
    queryKey: key,
    queryFn: () => api<Page<Order>>('/admin/orders/search', { ...filter, page, pageSize: 20 }),
    refetchInterval: POLL_MS,
  });
  // The linked order is shown until another is picked.
  const shown = selected ?? orders.data?.list.find((o) => o.orderNo === linked) ?? null;
  const fail = useFailToast();
  const exportCsv = useMutation({
    mutationFn: () => api<CsvExport>('/admin/orders/export', filter),
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
  return (
    <div className={css.split}>
      <Card title={t(kind === 'recharge' ? 'nav.recharges' : 'nav.exchanges')}>
        <Tabs
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { value: '0', label: t('orders.status0') },
            { value: '1', label: t('orders.status1') },
            { value: '2', label: t('orders.status2') },
            { value: 'all', label: t('orders.statusAll') },
          ]}
        />
        <SearchForm
          hint={t('orders.searchAny')}
          initial={linked}
          onSearch={(keyword) => {
            setSearch(keyword);
            setPage(1);
          }}
          after={
            <>
              <button type="button" className={ui.button} data-testid="orders-export" disabled={exportCsv.isPending} onClick={() => { exportCsv.mutate(); }}>
                {t('orders.export')}
              </button>
              <span className={ui.muted}>{t('orders.live')}</span>
            </>
          }
        >
          <input className={ui.input} type="date" aria-label={t('orders.from')} title={t('orders.from')} data-testid="orders-from" value={range.from} max={range.to || undefined} onChange={setDay('from')} />
          <input className={ui.input} type="date" aria-label={t('orders.to')} title={t('orders.to')} data-testid="orders-to" value={range.to} min={range.from || undefined} onChange={setDay('to')} />
        </SearchForm>
        <ListTable
          query={orders}
          columns={[t('orders.orderNo'), t('orders.account'), { label: t('orders.amount'), num: true }, kind === 'recharge' ? t('orders.protocol') : t('orders.bank'), t('orders.createdAt'), t('orders.status')]}
          row={(o) => (
            <tr
              key={o.id}
              className={[ui.clickable, o.id === shown?.id && ui.selected].filter(Boolean).join(' ')}
              onClick={() => { setSelected(o); }}
              data-order={o.orderNo}
            >
              <td className={ui.mono}>{o.orderNo}</td>
              <td>{o.account}</td>
              <td className={ui.num}>{money(o.amount)}</td>
              <td>{kind === 'recharge' ? o.protocol : o.bankName}</td>
              <td>{dateTime(o.createdAt)}</td>
              <td>
                <OrderStatus status={o.status} />
                {o.needsSecondApproval && o.status === 0 ? <SecondApprovalBadge order={o} /> : null}
              </td>
            </tr>
          )}
        />
        {orders.data && <Pager page={page} pageSize={20} total={orders.data.total} onPage={setPage} />}
      </Card>
      <div>
        {shown ? (
          <OrderDetail key={shown.id} kind={kind} order={shown} onReviewed={setSelected} />
        ) : (
          <Card>
            <Empty>{t('orders.pick')}</Empty>
          </Card>
        )}
      </div>
    </div>
  );
}

/** A recharge above the maximum in the queue: it needs two operators, and who approved first. */
function SecondApprovalBadge({ order }: { order: Order }) {
  const { t } = useT();
  return (
    <span className={[ui.badge, ui.badgeWarn].join(' ')} data-testid="needs-second" style={{ marginLeft: 6 }}>
      {order.firstApprovedBy ? t('orders.awaitingSecond', { account: order.firstApprovedBy }) : t('orders.needsTwo')}
    </span>
  );
}

function OrderDetail({ kind, order, onReviewed }: { kind: ReviewKind; order: Order; onReviewed: (o: Order) => void }) {
  const { t } = useT();
  const qc = useQueryClient();
  const review = useMutation({
    mutationFn: ({ action, remark }: { action: string; remark: string }) => api<Order>(`/admin/${kind}/${action}`, { orderId: order.id, remark }),
    onSuccess: (reviewed) => {
      showToast(reviewed.status === 0 && reviewed.needsSecondApproval ? t('orders.firstApprovalRecorded') : t('common.done'));
      onReviewed({ ...order, ...reviewed, userId: order.userId, account: order.account });
      void qc.invalidateQueries({ queryKey: ['orders', kind] });
      void qc.invalidateQueries({ queryKey: ['user', order.userId] });
    },
  });
  const link = explorer(order.protocol, order.txHash ?? '');
  const amount = money(order.amount);
  return (
    <div className={css.stack}>
      <Card title={t('orders.detail')}>
        <dl className={ui.kv}>
          <dt>{t('orders.orderNo')}</dt>
          <dd className={ui.mono}>{order.orderNo}</dd>
          <dt>{t('orders.account')}</dt>
          <dd>{order.userId ? <Link to={`/users/${order.userId}`}>{order.account}</Link> : order.account}</dd>
          <dt>{t('orders.amount')}</dt>
          <dd>{amount}</dd>
          <dt>{t('orders.status')}</dt>
          <dd>
            <OrderStatus status={order.status} />
          </dd>
          {order.needsSecondApproval ? (
            <>
              <dt>{t('orders.secondApproval')}</dt>
              <dd data-testid="second-approval">
                {order.firstApprovedBy
                  ? t('orders.firstApprovedBy', { account: order.firstApprovedBy, at: dateTime(order.firstApprovedAt ?? 0) })
                  : t('orders.needsTwo')}
              </dd>
            </>
          ) : null}
          {kind === 'recharge' ? (
            <>
              <dt>{t('orders.protocol')}</dt>
              <dd>{order.protocol}</dd>
              <dt>{t('orders.address')}</dt>
              <dd className={ui.mono}>{order.address}</dd>
              <dt>{t('orders.txHash')}</dt>
              <dd>
                {order.txHash ? (
                  <span className={css.inline}>
                    {link ? (
                      <a className={ui.mono} href={link} target="_blank" rel="noreferrer noopener" data-testid="tx-hash">
                        {order.txHash}
                      </a>
                    ) : (
                      <span className={ui.mono} data-testid="tx-hash">
                        {order.txHash}
                      </span>
                    )}
                    <CopyButton text={order.txHash} />
                  </span>
                ) : (
                  '—'
                )}
              </dd>
            </>
          ) : (
            <>
              <dt>{t('orders.bank')}</dt>
              <dd>{order.bankName}</dd>
              <dt>{t('orders.holder')}</dt>
              <dd>{order.holderName}</dd>
              <dt>{t('orders.card')}</dt>
              <dd className={css.inline}>
                <span className={ui.mono}>{order.cardNumber}</span>
                {order.cardNumber && <CopyButton text={order.cardNumber} />}
              </dd>
            </>
          )}
          <dt>{t('orders.createdAt')}</dt>
          <dd>{dateTime(order.createdAt)}</dd>
          <dt>{t('orders.reviewTime')}</dt>
          <dd>{dateTime(order.reviewTime)}</dd>
          <dt>{t('orders.remark')}</dt>
          <dd>{order.remark || '—'}</dd>
        </dl>
        {order.status === 0 && (
          <div className={ui.toolbar} style={{ marginTop: 16 }}>
            <ConfirmButton
              label={kind === 'recharge' ? t('orders.confirm') : t('orders.complete')}
              variant="primary"
              testId="order-confirm"
              options={{
                title: kind === 'recharge' ? t('orders.confirmTitle') : t('orders.completeTitle'),
                message: t(kind === 'recharge' ? 'orders.confirmText' : 'orders.completeText', { amount, account: order.account ?? '' }),
                reason: 'optional',
                onConfirm: (remark) => review.mutateAsync({ action: kind === 'recharge' ? 'confirm' : 'complete', remark }),
              }}
            />
            <ConfirmButton
              label={t('orders.fail')}
              variant="danger"
              testId="order-fail"
              options={{
                title: t('orders.failTitle'),
                message: t(kind === 'recharge' ? 'orders.failRechargeText' : 'orders.failExchangeText', { amount, account: order.account ?? '' }),
                reason: true,
                danger: true,
                onConfirm: (remark) => review.mutateAsync({ action: 'fail', remark }),
              }}
            />
          </div>
        )}
      </Card>
      {order.userId && <UserSnapshot userId={order.userId} />}
    </div>
  );
}

/** The order's user: balance and recent ledger lines, so a reviewer sees the context. */
function UserSnapshot({ userId }: { userId: string }) {
  const { t } = useT();
  const detail = useQuery({ queryKey: ['user', userId], queryFn: () => api<UserDetail>('/admin/user/detail', { userId }) });
  if (detail.isError) return <Card><p className={ui.error}>{t('common.loadFailed')}</p></Card>;
  if (!detail.data) return null;
  const d = detail.data;
  return (
    <Card title={t('users.snapshot')}>
      <dl className={ui.kv}>
        <dt>{t('users.balance')}</dt>
        <dd data-testid="user-balance">{money(d.balance)}</dd>
        <dt>{t('users.activation')}</dt>
        <dd>{d.user.isActivation ? t('users.activated') : t('users.notActivated')}</dd>
      </dl>
      <h3 className={css.subTitle}>{t('users.recentEntries')}</h3>
      <table className={ui.table}>
        <tbody>
          {d.entries.slice(0, 8).map((e) => (
            <tr key={`${e.transferId}${e.amount}`}>
              <td>{t(`kinds.${e.kind}` as 'kinds.recharge')}</td>
              <td className={ui.num}>{money(e.amount)}</td>
              <td className={ui.muted}>{dateTime(e.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

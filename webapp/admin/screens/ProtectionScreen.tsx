/**
 * Player protection (docs/PROTECTION.md): the players' cool-offs and self-exclusions, seen by
 * every operator, and the recharge orders held by a deposit limit or an exclusion, which an admin
 * may let through (the review queue then credits them).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import type { Page } from '../api/types';
import { useT } from '../i18n/useT';
import { sessionAtom } from '../state/session';
import { dateTime, money } from '../ui/format';
import { Card, ConfirmButton, ListTable, Pager, SearchForm, Tabs, ui } from '../ui/kit';
import { showToast } from '../ui/toast';

interface ExclusionRow {
  id: string;
  userId: string;
  account: string;
  kind: 'cooloff' | 'selfexclusion';
  startsAt: number;
  /** 0: permanent. */
  endsAt: number;
  inForce: boolean;
  createdAt: number;
}

interface HoldRow {
  orderId: string;
  orderNo: string;
  userId: string;
  account: string;
  amount: number;
  reason: string;
  /** 0: until an operator decides. */
  until: number;
  message: string;
  createdAt: number;
}

const PAGE_SIZE = 20;

export function ProtectionScreen() {
  return (
    <>
      <HoldsCard />
      <ExclusionsCard />
    </>
  );
}

function ExclusionsCard() {
  const { t } = useT();
  const [scope, setScope] = useState<'current' | 'all'>('current');
  const [account, setAccount] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['protection-exclusions', scope, account, page],
    queryFn: () =>
      api<Page<ExclusionRow>>('/admin/protection/exclusions', { current: scope === 'current', account, page, pageSize: PAGE_SIZE }),
  });
  return (
    <Card title={t('protection.exclusions')}>
      <SearchForm
        hint={t('protection.account')}
        onSearch={(q) => {
          setAccount(q);
          setPage(1);
        }}
        after={
          <Tabs
          value={scope}
          options={[
            { value: 'current', label: t('protection.inForce') },
            { value: 'all', label: t('protection.all') },
          ]}
          onChange={(v) => {
            setScope(v);
            setPage(1);
          }}
          />
        }
      />
      <ListTable
        query={list}
        columns={[t('protection.account'), t('protection.kind'), t('protection.starts'), t('protection.ends'), t('protection.state')]}
        row={(e) => (
          <tr key={e.id} data-testid="exclusion-row" data-kind={e.kind} data-account={e.account}>
            <td>
              <Link to={`/users/${e.userId}`}>{e.account}</Link>
            </td>
            <td>{t(e.kind === 'cooloff' ? 'protection.cooloff' : 'protection.selfexclusion')}</td>
            <td>{dateTime(e.startsAt)}</td>
            <td>{e.endsAt === 0 ? t('protection.permanent') : dateTime(e.endsAt)}</td>
            <td>{e.inForce ? t('protection.inForce') : t('protection.ended')}</td>
          </tr>
        )}
      />
      {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
    </Card>
  );
}

function HoldsCard() {
  const { t } = useT();
  const session = useAtomValue(sessionAtom);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['protection-holds', page],
    queryFn: () => api<Page<HoldRow>>('/admin/protection/holds', { page, pageSize: PAGE_SIZE }),
  });
  const release = useMutation({
    mutationFn: ({ orderId, remark }: { orderId: string; remark: string }) =>
      api('/admin/protection/holds/release', { orderId, remark }),
    onSuccess: () => {
      showToast(t('protection.released'));
      void queryClient.invalidateQueries({ queryKey: ['protection-holds'] });
    },
  });
  return (
    <Card title={t('protection.holds')}>
      <p className={ui.muted}>{t('protection.holdsNote')}</p>
      <ListTable
        query={list}
        columns={[t('protection.order'), t('protection.account'), { label: t('protection.amount'), num: true }, t('protection.reason'), '']}
        row={(h) => (
          <tr key={h.orderId} data-testid="hold-row" data-order={h.orderNo}>
            <td>
              <Link to={`/recharges?q=${encodeURIComponent(h.orderNo)}`}>{h.orderNo}</Link>
              <div className={ui.muted}>{dateTime(h.createdAt)}</div>
            </td>
            <td>
              <Link to={`/users/${h.userId}`}>{h.account}</Link>
            </td>
            <td className={ui.num}>{money(h.amount)}</td>
            <td>{h.message}</td>
            <td>
              {session?.role === 'admin' && (
                <ConfirmButton
                  label={t('protection.release')}
                  small
                  testId="hold-release"
                  options={{
                    title: t('protection.releaseTitle'),
                    message: t('protection.releaseText', { amount: money(h.amount), account: h.account }),
                    reason: 'optional',
                    onConfirm: (remark) => release.mutateAsync({ orderId: h.orderId, remark }),
                  }}
                />
              )}
            </td>
          </tr>
        )}
      />
      {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
    </Card>
  );
}

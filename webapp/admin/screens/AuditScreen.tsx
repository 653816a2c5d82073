/**
 * The audit log: every operator action in words, filtered by any part of the operator's account,
 * the action (picked from every action the log records, by name) and dates; rows link to the
 * user and the order they name.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import type { AuditAction, AuditEntry, Page } from '../api/types';
import { useT } from '../i18n/useT';
import { dateTime } from '../ui/format';
import { Card, ListTable, Pager, ui } from '../ui/kit';

interface Filters {
  operator: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { operator: '', action: '', target: '', from: '', to: '' };

/** A yyyy-mm-dd date input as the start (or the end) of that local day, in unix ms; 0 when empty. */
function dayBound(value: string, end: boolean): number {
  if (!value) return 0;
  const d = new Date(`${value}T00:00:00`);
  if (end) d.setDate(d.getDate() + 1);
  return d.getTime();
}

export function AuditScreen() {
  const { t } = useT();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const actions = useQuery({
    queryKey: ['audit-actions'],
    queryFn: () => api<{ list: AuditAction[] }>('/admin/audit/actions', {}),
    staleTime: Infinity,
  });
  const audit = useQuery({
    queryKey: ['audit', filters, page],
    queryFn: () =>
      api<Page<AuditEntry>>('/admin/audit/list', {
        operator: filters.operator,
        action: filters.action,
        target: filters.target,
        from: dayBound(filters.from, false),
        to: dayBound(filters.to, true),
        page,
        pageSize: 20,
      }),
  });
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => { setDraft({ ...draft, [k]: e.target.value }); };
  return (
    <Card title={t('nav.audit')}>
      <form
        className={ui.toolbar}
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft, operator: draft.operator.trim(), action: draft.action.trim(), target: draft.target.trim() });
          setPage(1);
        }}
      >
        <input className={ui.input} placeholder={t('audit.operator')} aria-label={t('audit.operator')} value={draft.operator} onChange={set('operator')} />
        <select className={ui.select} aria-label={t('audit.action')} data-testid="audit-action" value={draft.action} onChange={set('action')}>
          <option value="">{t('audit.anyAction')}</option>
          {actions.data?.list.map((a) => (
            <option key={a.action} value={a.action}>
              {a.name}
            </option>
          ))}
        </select>
        <input className={ui.input} placeholder={t('audit.target')} aria-label={t('audit.target')} value={draft.target} onChange={set('target')} />
        <input className={ui.input} type="date" aria-label={t('audit.from')} value={draft.from} onChange={set('from')} />
        <input className={ui.input} type="date" aria-label={t('audit.to')} value={draft.to} onChange={set('to')} />
        <button type="submit" className={ui.button}>
          {t('common.search')}
        </button>
      </form>
      <ListTable
        query={audit}
        columns={[t('audit.time'), t('audit.operator'), t('audit.action'), t('audit.changes')]}
        row={(a) => (
          <tr key={a.id} data-action={a.action}>
            <td>{dateTime(a.createdAt)}</td>
            <td>{a.operator}</td>
            <td data-testid="audit-text">
              {a.reading.text}
              {a.reading.userId && (
                <>
                  {' · '}
                  <Link to={`/users/${a.reading.userId}`} data-testid="audit-user">
                    {t('audit.openUser')}
                  </Link>
                </>
              )}
              {a.reading.orderNo && (
                <>
                  {' · '}
                  <Link to={`/${a.action.startsWith('exchange.') ? 'exchanges' : 'recharges'}?q=${encodeURIComponent(a.reading.orderNo)}`} data-testid="audit-order">
                    {t('audit.openOrder')} {a.reading.orderNo}
                  </Link>
                </>
              )}
            </td>
            <td>
              {a.reading.changes.map((c) => (
                <div key={c.field}>
                  <span className={ui.muted}>{c.field}</span>: {c.before || '—'} → {c.after || '—'}
                </div>
              ))}
              {a.reading.remark && <div>{t('audit.remark')}: {a.reading.remark}</div>}
              {a.reading.reason && <div>{t('audit.reason')}: {a.reading.reason}</div>}
            </td>
          </tr>
        )}
      />
      {audit.data && <Pager page={page} pageSize={20} total={audit.data.total} onPage={setPage} />}
    </Card>
  );
}

/**
 * Operators (admins only): every operator with its role and state; create an agent or admin; change
 * a role; disable / enable another operator's sign-in and reset their password.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { api } from '../api/client';
import type { Operator } from '../api/types';
import { useT } from '../i18n/useT';
import { sessionAtom, type Role } from '../state/session';
import { dateTime } from '../ui/format';
import { Button, Card, ConfirmButton, DataTable, Field, ui } from '../ui/kit';
import { showToast } from '../ui/toast';
import css from './screens.module.css';

export function OperatorsScreen() {
  const { t } = useT();
  const qc = useQueryClient();
  const session = useAtomValue(sessionAtom);
  const list = useQuery({ queryKey: ['operators'], queryFn: () => api<Operator[]>('/admin/operators/list') });
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const changeRole = useMutation({
    mutationFn: (body: { userId: string; role: Role }) => api<Operator[]>('/admin/operators/role', body),
    onSuccess: () => {
      showToast(t('common.done'));
      void qc.invalidateQueries({ queryKey: ['operators'] });
    },
  });
  const changeOperator = useMutation({
    mutationFn: ({ path, body }: { path: string; body: object }) => api<Operator[]>(path, body),
    onSuccess: (ops) => {
      showToast(t('common.done'));
      qc.setQueryData(['operators'], ops);
    },
  });
  const roleName = (r: Role) => t(r === 'admin' ? 'roles.admin' : 'roles.agent');
  return (
    <div className={css.split}>
      <Card title={t('operators.title')}>
        <DataTable columns={[t('users.account'), t('operators.role'), t('users.createdAt'), t('operators.lastLogin'), t('operators.state'), '']}>
          {list.data?.map((o) => (
            <tr key={o.userId} data-operator={o.account}>
              <td>{o.account}</td>
              <td>{roleName(o.role)}</td>
              <td>{dateTime(o.createdAt)}</td>
              <td>{dateTime(o.lastLoginAt)}</td>
              <td data-testid="operator-state">{o.disabledAt ? <span className={[ui.badge, ui.badgeWarn].join(' ')}>{t('operators.disabled')}</span> : t('operators.enabled')}</td>
              <td>
                {o.userId !== session?.userId && (
                  <div className={ui.toolbar}>
                  <ConfirmButton
                    small
                    label={o.role === 'admin' ? t('operators.makeAgent') : t('operators.makeAdmin')}
                    options={{
                      title: t('operators.changeRole'),
                      message: t('operators.changeRoleText', { account: o.account, role: roleName(o.role === 'admin' ? 'agent' : 'admin') }),
                      onConfirm: () => changeRole.mutateAsync({ userId: o.userId, role: o.role === 'admin' ? 'agent' : 'admin' }),
                    }}
                  />
                  <ConfirmButton
                    small
                    variant={o.disabledAt ? 'default' : 'danger'}
                    label={o.disabledAt ? t('operators.enable') : t('operators.disable')}
                    testId="operator-disable"
                    options={{
                      title: o.disabledAt ? t('operators.enable') : t('operators.disable'),
                      message: t(o.disabledAt ? 'operators.enableText' : 'operators.disableText', { account: o.account }),
                      danger: !o.disabledAt,
                      onConfirm: () => changeOperator.mutateAsync({ path: '/admin/operators/disable', body: { userId: o.userId, disabled: o.disabledAt ? 0 : 1 } }),
                    }}
                  />
                  <ResetPassword account={o.account} onReset={(pw) => changeOperator.mutateAsync({ path: '/admin/operators/resetPassword', body: { userId: o.userId, password: pw } })} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>
      <Card title={t('operators.create')}>
        <div className={css.stack}>
          <Field label={t('login.account')}>
            <input className={ui.input} name="newAccount" value={account} onChange={(e) => { setAccount(e.target.value); }} />
          </Field>
          <Field label={t('login.password')}>
            <input className={ui.input} name="newPassword" type="password" autoComplete="new-password" value={password} onChange={(e) => { setPassword(e.target.value); }} />
          </Field>
          <Field label={t('operators.role')}>
            <select className={ui.select} name="newRole" value={role} onChange={(e) => { setRole(e.target.value as Role); }}>
              <option value="agent">{t('roles.agent')}</option>
              <option value="admin">{t('roles.admin')}</option>
            </select>
          </Field>
          <p className={ui.muted}>{t('operators.rolesHint')}</p>
          <div>
            <ConfirmButton
              label={t('operators.create')}
              variant="primary"
              disabled={!account.trim() || !password}
              testId="operator-create"
              options={{
                title: t('operators.create'),
                message: t('operators.createText', { account: account.trim(), role: roleName(role) }),
                onConfirm: async () => {
                  await api<Operator>('/admin/operators/create', { account: account.trim(), password, role });
                  showToast(t('operators.created'));
                  setAccount('');
                  setPassword('');
                  void qc.invalidateQueries({ queryKey: ['operators'] });
                },
              }}
            />
          </div>
        </div>
      </Card>
    </div>
  );
}

/** An admin's reset of another operator's password: the new one typed twice, then confirmed. */
function ResetPassword({ account, onReset }: { account: string; onReset: (password: string) => Promise<unknown> }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState('');
  if (!open)
    return (
      <Button small data-testid="operator-reset" onClick={() => { setOpen(true); }}>
        {t('operators.resetPassword')}
      </Button>
    );
  const close = () => {
    setOpen(false);
    setPassword('');
    setAgain('');
    setError('');
  };
  return (
    <div className={ui.overlay} onClick={close}>
      <form
        className={ui.dialog}
        role="dialog"
        aria-modal="true"
        aria-label={t('operators.resetPassword')}
        onClick={(e) => { e.stopPropagation(); }}
        onSubmit={(e) => {
          e.preventDefault();
          if (password !== again) {
            setError(t('operators.passwordsDiffer'));
            return;
          }
          onReset(password).then(close, (err: unknown) => { setError(err instanceof Error ? err.message : String(err)); });
        }}
      >
        <h2>{t('operators.resetPassword')}</h2>
        <p className={ui.muted}>{t('operators.resetPasswordText', { account })}</p>
        <Field label={t('operators.newPassword')}>
          <input className={ui.input} name="resetPassword" type="password" autoComplete="new-password" value={password} onChange={(e) => { setPassword(e.target.value); }} />
        </Field>
        <Field label={t('operators.newPasswordAgain')}>
          <input className={ui.input} name="resetPasswordAgain" type="password" autoComplete="new-password" value={again} onChange={(e) => { setAgain(e.target.value); }} />
        </Field>
        {error && <p className={ui.error}>{error}</p>}
        <div className={ui.dialogActions}>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={!password} data-testid="operator-reset-save">
            {t('common.save')}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** Operators (admins only): every operator with its role; create an agent or admin; change a role. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { api } from '../api/client';
import type { Operator } from '../api/types';
import { useT } from '../i18n/useT';
import { sessionAtom, type Role } from '../state/session';
import { dateTime } from '../ui/format';
import { Card, ConfirmButton, DataTable, Field, ui } from '../ui/kit';
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
  const roleName = (r: Role) => t(r === 'admin' ? 'roles.admin' : 'roles.agent');
  return (
    <div className={css.split}>
      <Card title={t('operators.title')}>
        <DataTable columns={[t('users.account'), t('operators.role'), t('users.createdAt'), t('operators.lastLogin'), '']}>
          {list.data?.map((o) => (
            <tr key={o.userId} data-operator={o.account}>
              <td>{o.account}</td>
              <td>{roleName(o.role)}</td>
              <td>{dateTime(o.createdAt)}</td>
              <td>{dateTime(o.lastLoginAt)}</td>
              <td>
                {o.userId !== session?.userId && (
                  <ConfirmButton
                    small
                    label={o.role === 'admin' ? t('operators.makeAgent') : t('operators.makeAdmin')}
                    options={{
                      title: t('operators.changeRole'),
                      message: t('operators.changeRoleText', { account: o.account, role: roleName(o.role === 'admin' ? 'agent' : 'admin') }),
                      onConfirm: () => changeRole.mutateAsync({ userId: o.userId, role: o.role === 'admin' ? 'agent' : 'admin' }),
                    }}
                  />
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

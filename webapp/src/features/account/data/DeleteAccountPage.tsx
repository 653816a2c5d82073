import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accountDataApi, type BalanceChoice, type DeleteAccountInput, type DeletionFacts } from '../../../api/accountData';
import { endSessionLocally, replacingChatSession } from '../../../api/chat';
import { forgetAccount } from '../cachedAccounts';
import { CurrentPasswordField } from '../fields';
import { useUserInfo } from '../queries';
import { checkFundPassword } from '../validation';
import { FundPasswordField } from '../../wallet/fields';
import { LOGIN_PATH, SETTING_PATHS } from '../../../navigation/paths';
import { FormMessage } from '../../../components/form/FormMessage';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { formatMoney } from '../../../format';
import { showToast } from '../../../state/toast';
import styles from './AccountData.module.css';

const deletionQuery = { queryKey: ['account', 'deletion'] as const, queryFn: accountDataApi.deletionFacts, staleTime: 0 };

/**
 * Delete the account: what is erased and what is kept, the balance question answered first
 * (exchange it to a card, or give it up), then the login password. Afterwards every session of
 * the account is signed out, this one too, and the app returns to the sign-in page.
 */
export function DeleteAccountPage() {
  const { t } = useTranslation();
  const facts = useQuery(deletionQuery);
  return (
    <main className="page">
      <PageHeader title={t('leave.deleteTitle')} back fallback={SETTING_PATHS.accountData} />
      <div className="page-body">{queryBody(facts, (f) => <DeleteForm facts={f} />)}</div>
    </main>
  );
}

type Field = 'choice' | 'card' | 'fund' | 'password';

function DeleteForm({ facts }: { facts: DeletionFacts }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserInfo();
  const queryClient = useQueryClient();
  const form = useFormChecks<Field>();
  const [choice, setChoice] = useState<BalanceChoice | ''>('');
  const [cardId, setCardId] = useState(facts.cards.length === 1 ? (facts.cards[0]?.id ?? '') : '');
  const [fund, setFund] = useState('');
  const [password, setPassword] = useState('');
  const hasMoney = facts.balance > 0 || facts.pendingExchanges > 0;
  const exchanging = choice === 'exchange' && facts.balance > 0;
  const waiting = facts.openBets > 0 || facts.pendingRecharges > 0 || facts.ownedGroups > 0;

  const remove = useMutation({
    // The server ends every session of the account, this one too, and tells this socket its
    // token expired, often before its answer arrives: that end is the one asked for, not a
    // lapsed sign-in. So the session is dropped here inside the same replacingChatSession
    // (without a /logout, which would only be refused): were it still stored when that
    // returns, the socket's end would be reported as "sign-in expired", whose toast could
    // replace "your account was deleted" on the sign-in page.
    mutationFn: (input: DeleteAccountInput) =>
      replacingChatSession(async () => {
        await accountDataApi.deleteAccount(input);
        endSessionLocally();
      }),
    onSuccess: () => {
      if (user.data) forgetAccount(user.data.userId);
      queryClient.removeQueries();
      showToast(t('leave.deleted'));
      void navigate(LOGIN_PATH, { replace: true });
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (remove.isPending || waiting) return;
    const ready = form.ready([
      ['choice', hasMoney && !choice ? 'leave.choiceRequired' : null],
      ['card', exchanging && !cardId ? 'validation.cardRequired' : null],
      ['fund', exchanging ? checkFundPassword(fund) : null],
      ['password', password ? null : 'validation.passwordRequired'],
    ]);
    if (!ready) return;
    const input: DeleteAccountInput = { password };
    if (hasMoney && choice) input.balance = choice;
    if (exchanging) Object.assign(input, { bankCardId: cardId, fundPassword: fund });
    remove.mutate(input);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <ul className={styles.facts}>
        <li>{t('leave.erased')}</li>
        <li>{t('leave.kept', { count: facts.retentionDays })}</li>
        <li>{t('leave.messages')}</li>
        <li>{t('leave.final')}</li>
      </ul>
      {facts.openBets > 0 ? <p className={styles.warning}>{t('leave.waitBets')}</p> : null}
      {facts.pendingRecharges > 0 ? <p className={styles.warning}>{t('leave.waitRecharge')}</p> : null}
      {facts.ownedGroups > 0 ? <p className={styles.warning}>{t('leave.waitGroups')}</p> : null}
      {hasMoney ? (
        <fieldset className={styles.choice} aria-invalid={form.invalid('choice')}>
          <legend className={styles.choice__legend}>
            {t('leave.balanceQuestion', { amount: formatMoney(facts.balance + facts.pendingAmount, t) })}
          </legend>
          {(['exchange', 'forfeit'] as const).map((value) => (
            <label key={value} className={styles.choice__option}>
              <input
                type="radio"
                name="balance-choice"
                value={value}
                checked={choice === value}
                onChange={() => {
                  setChoice(value);
                }}
              />
              <span>
                {value === 'exchange'
                  ? t(facts.balance > 0 ? 'leave.choiceExchange' : 'leave.choiceKeepPending')
                  : t('leave.choiceForfeit')}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {exchanging ? (
        facts.cards.length === 0 ? (
          <p className={styles.warning}>{t('leave.noCard')}</p>
        ) : (
          <>
            <fieldset className={styles.choice} aria-invalid={form.invalid('card')}>
              <legend className={styles.choice__legend}>{t('leave.card')}</legend>
              {facts.cards.map((card) => (
                <label key={card.id} className={styles.choice__option}>
                  <input
                    type="radio"
                    name="bank-card"
                    value={card.id}
                    checked={cardId === card.id}
                    onChange={() => {
                      setCardId(card.id);
                    }}
                  />
                  <span>
                    {card.bankName} · {card.cardNumber.slice(-4).padStart(8, '*')}
                  </span>
                </label>
              ))}
            </fieldset>
            <FundPasswordField value={fund} invalid={form.invalid('fund')} onChange={setFund} />
          </>
        )
      ) : null}
      <CurrentPasswordField value={password} invalid={form.invalid('password')} onChange={setPassword} />
      <FormMessage message={form.message(remove.error?.message)} />
      <button type="submit" className="button button--danger button--block" disabled={remove.isPending || form.blocked || waiting}>
        {remove.isPending ? t('leave.deleting') : t('leave.deleteButton')}
      </button>
    </form>
  );
}

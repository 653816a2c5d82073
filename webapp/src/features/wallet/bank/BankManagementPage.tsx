import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { walletApi, type BankCard } from '../../../api/wallet';
import { bankCardsQuery, queryKeys } from '../../account/queries';
import { MY_PATHS, SETTING_PATHS } from '../../../navigation/paths';
import { ConfirmDialog } from '../../../components/dialog/ConfirmDialog';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';
import { BankCardView } from './BankCardView';
import styles from './BankManagementPage.module.css';

/** The user's bank cards: list, add, delete (with a confirmation). */
export function BankManagementPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cards = useQuery(bankCardsQuery);
  const [removing, setRemoving] = useState<BankCard | null>(null);
  const remove = useMutation({
    mutationFn: (card: BankCard) => walletApi.deleteBankCard(card.id),
    onSuccess: (_data, card) => {
      queryClient.setQueryData<BankCard[]>(queryKeys.bankCards, (old) => old?.filter((c) => c.id !== card.id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.bankCards });
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
      setRemoving(null);
      showToast(t('bank.deleted'));
    },
    onError: (error) => {
      setRemoving(null);
      showToast(error.message);
    },
  });

  const addLink = (
    <Link className="button button--block" to={SETTING_PATHS.addBank}>
      {t('bank.add')}
    </Link>
  );

  const body = queryBody(cards, (list) =>
    list.length === 0 ? (
      <EmptyState title={t('bank.emptyTitle')} text={t('bank.emptyText')}>
        <Link className="button" to={SETTING_PATHS.addBank}>
          {t('bank.add')}
        </Link>
      </EmptyState>
    ) : (
      <>
        <ul className={styles['bank-cards']} aria-label={t('bank.listLabel')}>
          {list.map((card) => (
            <li key={card.id}>
              <BankCardView card={card}>
                <button
                  type="button"
                  className={styles['bank-card__delete']}
                  aria-label={t('bank.deleteLabel', { bank: card.bankName, number: card.cardNumber.slice(-4) })}
                  onClick={() => {
                    setRemoving(card);
                  }}
                >
                  {t('bank.delete')}
                </button>
              </BankCardView>
            </li>
          ))}
        </ul>
        <div className="page-actions">{addLink}</div>
      </>
    ),
  );

  return (
    <main className="page">
      <PageHeader title={t('bank.title')} back fallback={MY_PATHS.safetySetting} />
      {body}
      <ConfirmDialog
        open={removing !== null}
        title={t('bank.deleteTitle')}
        danger
        confirmLabel={t('bank.delete')}
        busy={remove.isPending}
        onCancel={() => {
          setRemoving(null);
        }}
        onConfirm={() => {
          if (removing) remove.mutate(removing);
        }}
      >
        {removing ? <p>{t('bank.deleteText', { bank: removing.bankName, number: removing.cardNumber.slice(-4) })}</p> : null}
      </ConfirmDialog>
    </main>
  );
}

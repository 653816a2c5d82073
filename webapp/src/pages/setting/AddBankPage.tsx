import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { walletApi, type AddBankCardInput } from '../../api/wallet';
import { banksQuery, queryKeys, walletSummaryQuery } from '../../account/queries';
import { characterCount, checkCardNumber, checkFundPassword, digitsOnly, type MessageKey } from '../../account/validation';
import { SETTING_PATHS, withRedirect } from '../../app/paths';
import { PageLoading } from '../../app/PageLoading';
import { useReturn } from '../../app/useReturn';
import { ConfirmDialog } from '../../components/dialog/ConfirmDialog';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { FormMessage } from '../../components/form/FormMessage';
import { PinField } from '../../components/form/PinField';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { PageHeader } from '../../components/page-header/PageHeader';
import { ErrorState } from '../../components/status/ErrorState';
import { showToast } from '../../state/toast';

type Field = 'name' | 'bank' | 'card' | 'confirm' | 'fund';

const HOLDER_MAX = 50;

/**
 * Add a bank card: holder, bank, card number twice ('Bank card numbers do not match'), fund
 * password; a confirmation shows what is about to be bound. Without a fund password the page
 * asks for one first.
 */
export function AddBankPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const wallet = useQuery(walletSummaryQuery);
  const banks = useQuery(banksQuery);

  let body;
  if (wallet.isPending || banks.isPending) body = <PageLoading />;
  else if (wallet.isError || banks.isError) {
    body = (
      <ErrorState
        message={(wallet.error ?? banks.error)?.message}
        onRetry={() => {
          void wallet.refetch();
          void banks.refetch();
        }}
      />
    );
  } else if (!wallet.data.hasFundPassword) {
    body = (
      <EmptyState title={t('bank.needFundPasswordTitle')} text={t('bank.needFundPasswordText')}>
        <Link className="button" to={withRedirect(SETTING_PATHS.fundPassword, `${pathname}${search}`)}>
          {t('safety.setFundPassword')}
        </Link>
      </EmptyState>
    );
  } else {
    body = <AddBankForm banks={banks.data} />;
  }

  return (
    <main className="page">
      <PageHeader title={t('bank.addTitle')} back fallback={SETTING_PATHS.bankManagement} />
      {body}
    </main>
  );
}

function AddBankForm({ banks }: { banks: { id: string; name: string }[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = useReturn(SETTING_PATHS.bankManagement);
  const throttle = useSubmitThrottle();
  const [name, setName] = useState('');
  const [bank, setBank] = useState('');
  const [card, setCard] = useState('');
  const [confirmCard, setConfirmCard] = useState('');
  const [fund, setFund] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const add = useMutation({
    mutationFn: (input: AddBankCardInput) => walletApi.addBankCard(input),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.bankCards });
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
      showToast(t('bank.added'));
      done();
    },
    onError: () => {
      setConfirming(false);
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (add.isPending) return;
    add.reset();
    const holder = name.trim();
    const checks: [Field, MessageKey | null][] = [
      ['name', !holder ? 'validation.holderRequired' : characterCount(holder) > HOLDER_MAX ? 'validation.holderLength' : null],
      ['bank', bank ? null : 'validation.bankRequired'],
      ['card', checkCardNumber(card)],
      ['confirm', !confirmCard ? 'validation.confirmCardRequired' : confirmCard !== card ? 'validation.cardMismatch' : null],
      ['fund', checkFundPassword(fund)],
    ];
    const failed = checks.find(([, key]) => key !== null);
    if (failed?.[1]) {
      setProblem({ field: failed[0], key: failed[1] });
      return;
    }
    setProblem(null);
    setConfirming(true);
  };

  const bankName = banks.find((b) => b.id === bank)?.name ?? '';
  const grouped = (value: string): string => value.replace(/(\d{4})(?=\d)/g, '$1 ');

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label={t('bank.holder')}
        name="holder"
        autoComplete="cc-name"
        placeholder={t('bank.holderPlaceholder')}
        value={name}
        invalid={problem?.field === 'name'}
        onChange={setName}
      />
      <div className="field">
        <label className="field__label" htmlFor="bank-select">
          {t('bank.bank')}
        </label>
        <div className="field__control" data-invalid={problem?.field === 'bank' || undefined}>
          <select
            id="bank-select"
            className="field__select"
            value={bank}
            aria-invalid={problem?.field === 'bank'}
            onChange={(event) => {
              setBank(event.target.value);
            }}
          >
            <option value="">{t('bank.bankPlaceholder')}</option>
            {banks.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <TextField
        label={t('bank.cardNumber')}
        name="card-number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder={t('bank.cardNumberPlaceholder')}
        value={grouped(card)}
        invalid={problem?.field === 'card'}
        onChange={(value) => {
          setCard(digitsOnly(value).slice(0, 19));
        }}
      />
      <TextField
        label={t('bank.confirmCardNumber')}
        name="confirm-card-number"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('bank.confirmCardNumberPlaceholder')}
        value={grouped(confirmCard)}
        invalid={problem?.field === 'confirm'}
        onChange={(value) => {
          setConfirmCard(digitsOnly(value).slice(0, 19));
        }}
      />
      <PinField
        label={t('bank.fundPassword')}
        name="fund-password"
        placeholder={t('safety.fundPasswordPlaceholder')}
        value={fund}
        invalid={problem?.field === 'fund'}
        onChange={setFund}
      />
      <FormMessage message={problem ? t(problem.key) : (add.error?.message ?? null)} />
      <button type="submit" className="button button--block" disabled={add.isPending || throttle.blocked}>
        {t('bank.submit')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('bank.confirmTitle')}
        busy={add.isPending}
        onCancel={() => {
          setConfirming(false);
        }}
        onConfirm={() => {
          if (!throttle.gate()) return;
          add.mutate({ name: name.trim(), bank, cardNumber: card, confirmCardNumber: confirmCard, fundPassword: fund });
        }}
      >
        <p>{t('bank.confirmHolder', { name: name.trim() })}</p>
        <p>{t('bank.confirmBank', { bank: bankName })}</p>
        <p>{t('bank.confirmNumber', { number: grouped(card) })}</p>
      </ConfirmDialog>
    </form>
  );
}

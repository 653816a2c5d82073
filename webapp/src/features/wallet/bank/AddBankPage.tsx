import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { walletApi, type AddBankCardInput } from '../../../api/wallet';
import { banksQuery, queryKeys, walletSummaryQuery } from '../../account/queries';
import { characterCount, checkCardNumber, checkFundPassword, digitsOnly } from '../../account/validation';
import { FundPasswordField, NeedFundPassword } from '../fields';
import { SETTING_PATHS } from '../../../navigation/paths';
import { useReturn } from '../../../navigation/useReturn';
import { ConfirmDialog } from '../../../components/dialog/ConfirmDialog';
import { FormMessage } from '../../../components/form/FormMessage';
import { TextField } from '../../../components/form/TextField';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryGate } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';

type Field = 'name' | 'bank' | 'card' | 'confirm' | 'fund';

const HOLDER_MAX = 50;
const CARD_DIGITS_MAX = 19;

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

  const gate = queryGate([wallet, banks]);
  let body;
  if (gate) body = gate;
  else if (!wallet.data?.hasFundPassword) body = <NeedFundPassword text={t('bank.needFundPasswordText')} returnTo={`${pathname}${search}`} />;
  else body = <AddBankForm banks={banks.data ?? []} />;

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
  const form = useFormChecks<Field>();
  const [name, setName] = useState('');
  const [bank, setBank] = useState('');
  const [card, setCard] = useState('');
  const [confirmCard, setConfirmCard] = useState('');
  const [fund, setFund] = useState('');
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
    const ready = form.ready(
      [
        ['name', !holder ? 'validation.holderRequired' : characterCount(holder) > HOLDER_MAX ? 'validation.holderLength' : null],
        ['bank', bank ? null : 'validation.bankRequired'],
        ['card', checkCardNumber(card)],
        ['confirm', !confirmCard ? 'validation.confirmCardRequired' : confirmCard !== card ? 'validation.cardMismatch' : null],
        ['fund', checkFundPassword(fund)],
      ],
      // The request goes from the confirmation; the throttle starts there.
      { throttle: false },
    );
    if (ready) setConfirming(true);
  };

  const bankName = banks.find((b) => b.id === bank)?.name ?? '';
  const grouped = (value: string): string => value.replace(/(\d{4})(?=\d)/g, '$1 ');

  // The card number, then again to confirm it.
  const cardFields: [Field, string, string, string, string, string, (value: string) => void][] = [
    ['card', t('bank.cardNumber'), 'card-number', 'cc-number', t('bank.cardNumberPlaceholder'), card, setCard],
    ['confirm', t('bank.confirmCardNumber'), 'confirm-card-number', 'off', t('bank.confirmCardNumberPlaceholder'), confirmCard, setConfirmCard],
  ];

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label={t('bank.holder')}
        name="holder"
        autoComplete="cc-name"
        placeholder={t('bank.holderPlaceholder')}
        value={name}
        invalid={form.invalid('name')}
        onChange={setName}
      />
      <div className="field">
        <label className="field__label" htmlFor="bank-select">
          {t('bank.bank')}
        </label>
        <div className="field__control" data-invalid={form.invalid('bank') || undefined}>
          <select
            id="bank-select"
            className="field__select"
            value={bank}
            aria-invalid={form.invalid('bank')}
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
      {cardFields.map(([field, label, name, autoComplete, placeholder, value, onChange]) => (
        <TextField
          key={field}
          label={label}
          name={name}
          inputMode="numeric"
          autoComplete={autoComplete}
          placeholder={placeholder}
          value={grouped(value)}
          invalid={form.invalid(field)}
          onChange={(typed) => {
            onChange(digitsOnly(typed).slice(0, CARD_DIGITS_MAX));
          }}
        />
      ))}
      <FundPasswordField value={fund} invalid={form.invalid('fund')} onChange={setFund} />
      <FormMessage message={form.message(add.error?.message)} />
      <SubmitButton label={t('bank.submit')} busyLabel={t('bank.submit')} busy={add.isPending} blocked={form.blocked} />
      <ConfirmDialog
        open={confirming}
        title={t('bank.confirmTitle')}
        busy={add.isPending}
        onCancel={() => {
          setConfirming(false);
        }}
        onConfirm={() => {
          if (!form.gate()) return;
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

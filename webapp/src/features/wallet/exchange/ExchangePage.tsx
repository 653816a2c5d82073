import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, ApiErrorCode } from '../../../api/client';
import { newIdempotencyKey, walletApi, type BankCard, type ExchangeInput, type WalletSummary } from '../../../api/wallet';
import { bankCardsQuery, queryKeys, walletSummaryQuery } from '../../account/queries';
import { checkFundPassword } from '../../account/validation';
import { amountCents, centsToAmountText } from '../../../format/amount';
import { AmountField, checkAmount, FundPasswordField, NeedFundPassword } from '../fields';
import { MY_PATHS, SETTING_PATHS, TAB_PATHS, withRedirect } from '../../../navigation/paths';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { FormMessage } from '../../../components/form/FormMessage';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryGate } from '../../../components/status/QueryGate';
import { formatMoney } from '../../../format';
import { showToast } from '../../../state/toast';
import styles from '../wallet.module.css';

type Field = 'amount' | 'card' | 'fund';

/**
 * Exchange points to a bank card. Without a bound card the page asks to bind one ('You have
 * not bound a bank card'); without a fund password, to set one. The server checks the
 * balance, limits and fund password and its message is shown as said.
 */
export function ExchangePage() {
  const { t } = useTranslation();
  const wallet = useQuery({ ...walletSummaryQuery, refetchOnMount: 'always' });
  const cards = useQuery(bankCardsQuery);
  const here = MY_PATHS.exchange;

  const gate = queryGate([wallet, cards]);
  let body;
  if (gate) body = gate;
  else if (!cards.data?.length) {
    body = (
      <EmptyState title={t('exchange.noCardTitle')} text={t('exchange.noCardText')}>
        <Link className="button" to={withRedirect(SETTING_PATHS.addBank, here)}>
          {t('exchange.bindCard')}
        </Link>
      </EmptyState>
    );
  } else if (!wallet.data?.hasFundPassword) {
    body = <NeedFundPassword text={t('exchange.needFundPasswordText')} returnTo={here} />;
  } else {
    body = <ExchangeForm wallet={wallet.data} cards={cards.data} />;
  }

  return (
    <main className="page">
      <PageHeader title={t('exchange.title')} back fallback={TAB_PATHS.mine} />
      {body}
    </main>
  );
}

function ExchangeForm({ wallet, cards }: { wallet: WalletSummary; cards: BankCard[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useFormChecks<Field>();
  const [amount, setAmount] = useState('');
  const [cardId, setCardId] = useState(cards.length === 1 ? (cards[0]?.id ?? '') : '');
  const [fund, setFund] = useState('');
  // One key per exchange the user asks for: a retry after a lost answer cannot pay twice.
  const key = useRef(newIdempotencyKey());

  const submit = useMutation({
    mutationFn: (input: ExchangeInput) => walletApi.exchange(input, key.current),
    onSuccess: () => {
      key.current = newIdempotencyKey();
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
      void queryClient.invalidateQueries({ queryKey: queryKeys.records });
      showToast(t('exchange.submitted'));
      void navigate(MY_PATHS.exchangeRecord, { replace: true });
    },
    onError: (error) => {
      // The server answered (a refusal): the next attempt is a new request.
      if (!(error instanceof ApiError && error.code === ApiErrorCode.network)) key.current = newIdempotencyKey();
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (submit.isPending) return;
    const cents = amountCents(amount) ?? 0;
    const ready = form.ready([
      ['amount', checkAmount(amount)],
      ['amount', cents < wallet.exchangeMin ? 'validation.exchangeMin' : null, { limit: formatMoney(wallet.exchangeMin, t) }],
      [
        'amount',
        wallet.exchangeMax > 0 && cents > wallet.exchangeMax ? 'validation.exchangeMax' : null,
        { limit: formatMoney(wallet.exchangeMax, t) },
      ],
      ['card', cardId ? null : 'validation.cardRequired'],
      ['fund', checkFundPassword(fund)],
    ]);
    if (ready) submit.mutate({ amount: cents, bankCardId: cardId, fundPassword: fund });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <div className={styles['wallet-balance']}>
        <p className={styles['wallet-balance__label']}>{t('exchange.available')}</p>
        <p className={styles['wallet-balance__value']} data-testid="exchange-balance">
          {formatMoney(wallet.amount, t)}
        </p>
      </div>
      <AmountField
        label={t('exchange.amount')}
        placeholder={t('exchange.amountPlaceholder')}
        hint={t('exchange.limits', { min: formatMoney(wallet.exchangeMin, t), max: formatMoney(wallet.exchangeMax, t) })}
        value={amount}
        invalid={form.invalid('amount')}
        onChange={setAmount}
        trailing={
          <button
            type="button"
            className="field__button"
            onClick={() => {
              setAmount(centsToAmountText(Math.min(wallet.amount, wallet.exchangeMax || wallet.amount)));
            }}
          >
            {t('exchange.all')}
          </button>
        }
      />
      <fieldset className={styles['card-choice']} aria-invalid={form.invalid('card')}>
        <legend className={styles['card-choice__legend']}>{t('exchange.card')}</legend>
        {cards.map((card) => (
          <label key={card.id} className={styles['card-choice__option']}>
            <input
              type="radio"
              name="bank-card"
              value={card.id}
              checked={cardId === card.id}
              onChange={() => {
                setCardId(card.id);
              }}
            />
            <span className={styles['card-choice__text']}>
              <span className={styles['card-choice__bank']}>{card.bankName}</span>
              <span className={styles['card-choice__number']}>
                {card.holderName} · {card.cardNumber.slice(-4).padStart(8, '*')}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <FundPasswordField value={fund} invalid={form.invalid('fund')} onChange={setFund} />
      <FormMessage message={form.message(submit.error?.message)} />
      <SubmitButton label={t('exchange.submit')} busy={submit.isPending} blocked={form.blocked} />
    </form>
  );
}

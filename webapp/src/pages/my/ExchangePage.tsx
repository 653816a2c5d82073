import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, ApiErrorCode } from '../../api/client';
import { newIdempotencyKey, walletApi, type BankCard, type ExchangeInput, type WalletSummary } from '../../api/wallet';
import { bankCardsQuery, queryKeys, walletSummaryQuery } from '../../account/queries';
import { amountToCents, centsToInput, checkFundPassword, sanitizeAmount, type MessageKey } from '../../account/validation';
import { MY_PATHS, SETTING_PATHS, TAB_PATHS, withRedirect } from '../../app/paths';
import { PageLoading } from '../../app/PageLoading';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { FormMessage } from '../../components/form/FormMessage';
import { PinField } from '../../components/form/PinField';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { PageHeader } from '../../components/page-header/PageHeader';
import { ErrorState } from '../../components/status/ErrorState';
import { formatMoney } from '../../format';
import { showToast } from '../../state/toast';
import './wallet.css';

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

  let body;
  if (wallet.isPending || cards.isPending) body = <PageLoading />;
  else if (wallet.isError || cards.isError) {
    body = (
      <ErrorState
        message={(wallet.error ?? cards.error)?.message}
        onRetry={() => {
          void wallet.refetch();
          void cards.refetch();
        }}
      />
    );
  } else if (cards.data.length === 0) {
    body = (
      <EmptyState title={t('exchange.noCardTitle')} text={t('exchange.noCardText')}>
        <Link className="button" to={withRedirect(SETTING_PATHS.addBank, here)}>
          {t('exchange.bindCard')}
        </Link>
      </EmptyState>
    );
  } else if (!wallet.data.hasFundPassword) {
    body = (
      <EmptyState title={t('bank.needFundPasswordTitle')} text={t('exchange.needFundPasswordText')}>
        <Link className="button" to={withRedirect(SETTING_PATHS.fundPassword, here)}>
          {t('safety.setFundPassword')}
        </Link>
      </EmptyState>
    );
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
  const throttle = useSubmitThrottle();
  const [amount, setAmount] = useState('');
  const [cardId, setCardId] = useState(cards.length === 1 ? (cards[0]?.id ?? '') : '');
  const [fund, setFund] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey; limit?: string } | null>(null);
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
    const cents = amountToCents(amount);
    if (!amount) {
      setProblem({ field: 'amount', key: 'validation.amountRequired' });
      return;
    }
    if (cents === null || cents <= 0) {
      setProblem({ field: 'amount', key: 'validation.amountFormat' });
      return;
    }
    if (cents < wallet.exchangeMin) {
      setProblem({ field: 'amount', key: 'validation.exchangeMin', limit: formatMoney(wallet.exchangeMin, t) });
      return;
    }
    if (wallet.exchangeMax > 0 && cents > wallet.exchangeMax) {
      setProblem({ field: 'amount', key: 'validation.exchangeMax', limit: formatMoney(wallet.exchangeMax, t) });
      return;
    }
    if (!cardId) {
      setProblem({ field: 'card', key: 'validation.cardRequired' });
      return;
    }
    const fundProblem = checkFundPassword(fund);
    if (fundProblem) {
      setProblem({ field: 'fund', key: fundProblem });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    submit.mutate({ amount: cents, bankCardId: cardId, fundPassword: fund });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <div className="wallet-balance">
        <p className="wallet-balance__label">{t('exchange.available')}</p>
        <p className="wallet-balance__value" data-testid="exchange-balance">
          {formatMoney(wallet.amount, t)}
        </p>
      </div>
      <TextField
        label={t('exchange.amount')}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('exchange.amountPlaceholder')}
        hint={t('exchange.limits', { min: formatMoney(wallet.exchangeMin, t), max: formatMoney(wallet.exchangeMax, t) })}
        value={amount}
        invalid={problem?.field === 'amount'}
        onChange={(value) => {
          setAmount(sanitizeAmount(value));
        }}
        trailing={
          <button
            type="button"
            className="wallet-all"
            onClick={() => {
              setAmount(centsToInput(Math.min(wallet.amount, wallet.exchangeMax || wallet.amount)));
            }}
          >
            {t('exchange.all')}
          </button>
        }
      />
      <fieldset className="card-choice" aria-invalid={problem?.field === 'card'}>
        <legend className="card-choice__legend">{t('exchange.card')}</legend>
        {cards.map((card) => (
          <label key={card.id} className="card-choice__option">
            <input
              type="radio"
              name="bank-card"
              value={card.id}
              checked={cardId === card.id}
              onChange={() => {
                setCardId(card.id);
              }}
            />
            <span className="card-choice__text">
              <span className="card-choice__bank">{card.bankName}</span>
              <span className="card-choice__number">
                {card.holderName} · {card.cardNumber.slice(-4).padStart(8, '*')}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <PinField
        label={t('bank.fundPassword')}
        name="fund-password"
        placeholder={t('safety.fundPasswordPlaceholder')}
        value={fund}
        invalid={problem?.field === 'fund'}
        onChange={setFund}
      />
      <FormMessage message={problem ? t(problem.key, { limit: problem.limit ?? '' }) : (submit.error?.message ?? null)} />
      <button type="submit" className="button button--block" disabled={submit.isPending || throttle.blocked}>
        {submit.isPending ? t('kit.submitting') : t('exchange.submit')}
      </button>
    </form>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { walletApi, type ChainType, type Order, type UsdtProtocol } from '../../api/wallet';
import { chainTypesQuery, queryKeys } from '../../account/queries';
import { amountToCents, sanitizeAmount, type MessageKey } from '../../account/validation';
import { MY_PATHS, TAB_PATHS } from '../../app/paths';
import { PageLoading } from '../../app/PageLoading';
import { CopyButton } from '../../components/copy/CopyButton';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { FormMessage } from '../../components/form/FormMessage';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { PageHeader } from '../../components/page-header/PageHeader';
import { QrCode } from '../../components/qr-code/QrCode';
import { ErrorState } from '../../components/status/ErrorState';
import { SegmentTabs } from '../../components/tabs/SegmentTabs';
import { formatMoney } from '../../format';
import './wallet.css';

/** The transaction hash each protocol uses (checked again by the server). */
const TX_HASH: Record<UsdtProtocol, RegExp> = {
  TRC20: /^[0-9a-fA-F]{64}$/,
  ERC20: /^0x[0-9a-fA-F]{64}$/,
};

type Field = 'amount' | 'hash';

/**
 * Recharge: method USDT, protocol choice, the deposit address with copy button and QR code,
 * amount (at least minDep) and the transaction hash. The order waits for an operator.
 */
export function RechargePage() {
  const { t } = useTranslation();
  const chains = useQuery(chainTypesQuery);

  let body;
  if (chains.isPending) body = <PageLoading />;
  else if (chains.isError) {
    body = (
      <ErrorState
        message={chains.error.message}
        onRetry={() => {
          void chains.refetch();
        }}
      />
    );
  } else if (chains.data.list.length === 0) {
    body = <EmptyState title={t('recharge.unavailableTitle')} text={t('recharge.unavailableText')} />;
  } else {
    body = <RechargeForm chains={chains.data.list} currency={chains.data.currency || 'USDT'} />;
  }
  return (
    <main className="page">
      <PageHeader title={t('recharge.title')} back fallback={TAB_PATHS.mine} />
      {body}
    </main>
  );
}

function RechargeForm({ chains, currency }: { chains: ChainType[]; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const throttle = useSubmitThrottle();
  const [protocol, setProtocol] = useState<UsdtProtocol>(chains[0]?.protocol ?? 'TRC20');
  const [amount, setAmount] = useState('');
  const [hash, setHash] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey; min?: string } | null>(null);
  const [order, setOrder] = useState<Order | null>(null);
  const chain = chains.find((c) => c.protocol === protocol) ?? chains[0];

  const submit = useMutation({
    mutationFn: (input: { cents: number; protocol: UsdtProtocol; hash: string }) =>
      walletApi.recharge(input.cents, input.protocol, input.hash),
    onSuccess: (created) => {
      setOrder(created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.records });
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
    },
  });

  if (!chain) return null;

  if (order) {
    return (
      <EmptyState title={t('recharge.submittedTitle')} text={t('recharge.submittedText', { orderNo: order.orderNo })}>
        <Link className="button" to={MY_PATHS.pointsDetails}>
          {t('mine.pointsDetails')}
        </Link>
      </EmptyState>
    );
  }

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (submit.isPending) return;
    const cents = amountToCents(amount);
    const trimmed = hash.trim();
    if (!amount) {
      setProblem({ field: 'amount', key: 'validation.amountRequired' });
      return;
    }
    if (cents === null || cents <= 0) {
      setProblem({ field: 'amount', key: 'validation.amountFormat' });
      return;
    }
    if (cents < chain.minDep) {
      setProblem({ field: 'amount', key: 'validation.rechargeMin', min: formatMoney(chain.minDep, t) });
      return;
    }
    if (!trimmed) {
      setProblem({ field: 'hash', key: 'validation.txHashRequired' });
      return;
    }
    if (!TX_HASH[chain.protocol].test(trimmed)) {
      setProblem({ field: 'hash', key: 'validation.txHashFormat' });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    submit.mutate({ cents, protocol: chain.protocol, hash: trimmed });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <section className="wallet-section" aria-labelledby="recharge-method">
        <h2 id="recharge-method" className="wallet-section__title">
          {t('recharge.method')}
        </h2>
        {/* USDT is the one method the server offers; its protocols are the choice below. */}
        <p className="wallet-method">
          <span className="wallet-method__option wallet-method__option--selected">{currency}</span>
        </p>
      </section>
      <section className="wallet-section" aria-labelledby="recharge-protocol">
        <h2 id="recharge-protocol" className="wallet-section__title">
          {t('recharge.protocol')}
        </h2>
        <SegmentTabs
          variant="chips"
          label={t('recharge.protocol')}
          segments={chains.map((c) => ({ value: c.protocol, label: c.name }))}
          value={chain.protocol}
          onChange={(value) => {
            setProtocol(value);
            setProblem(null);
          }}
        />
      </section>
      <section className="wallet-address" aria-labelledby="recharge-address">
        <h2 id="recharge-address" className="wallet-section__title">
          {t('recharge.address', { network: chain.network })}
        </h2>
        <QrCode value={chain.address} label={t('recharge.addressQr', { name: chain.name })} size={180} />
        <div className="wallet-address__row">
          <code className="wallet-address__text" data-testid="deposit-address">
            {chain.address}
          </code>
          <CopyButton text={chain.address} label={t('recharge.copyAddress')} />
        </div>
        <p className="form__note">{t('recharge.addressNote', { name: chain.name })}</p>
      </section>
      <TextField
        label={t('recharge.amount', { currency })}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('recharge.amountPlaceholder', { min: formatMoney(chain.minDep, t) })}
        value={amount}
        invalid={problem?.field === 'amount'}
        onChange={(value) => {
          setAmount(sanitizeAmount(value));
        }}
      />
      <TextField
        label={t('recharge.txHash')}
        name="tx-hash"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('recharge.txHashPlaceholder')}
        value={hash}
        invalid={problem?.field === 'hash'}
        onChange={setHash}
      />
      <FormMessage message={problem ? t(problem.key, { min: problem.min ?? '' }) : (submit.error?.message ?? null)} />
      <button type="submit" className="button button--block" disabled={submit.isPending || throttle.blocked}>
        {submit.isPending ? t('kit.submitting') : t('recharge.submit')}
      </button>
    </form>
  );
}

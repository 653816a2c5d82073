import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { walletApi, type ChainType, type Order, type UsdtProtocol } from '../../../api/wallet';
import { chainTypesQuery, queryKeys } from '../../account/queries';
import { amountCents } from '../../../format/amount';
import { AmountField, checkAmount } from '../fields';
import { customerPath, MY_PATHS, TAB_PATHS } from '../../../navigation/paths';
import { CopyButton } from '../../../components/copy/CopyButton';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { FormMessage } from '../../../components/form/FormMessage';
import { TextField } from '../../../components/form/TextField';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { QrCode } from '../../../components/qr-code/QrCode';
import { queryBody } from '../../../components/status/QueryGate';
import { SegmentTabs } from '../../../components/tabs/SegmentTabs';
import { formatMoney } from '../../../format';
import styles from '../wallet.module.css';

/** The transaction hash each protocol uses (checked again by the server). */
const TX_HASH: Record<UsdtProtocol, RegExp> = {
  TRC20: /^[0-9a-fA-F]{64}$/,
  ERC20: /^0x[0-9a-fA-F]{64}$/,
};

type Field = 'amount' | 'hash';

/** The recharge methods: through customer service, or a USDT transfer the user claims. */
type Method = 'service' | 'usdt';

/**
 * Recharge: the methods the server offers — through customer service (the amount goes to an
 * agent in a draft) and USDT (protocol choice, the deposit address with copy button and QR
 * code, amount of at least minDep and the transaction hash; the order waits for an operator).
 */
export function RechargePage() {
  const { t } = useTranslation();
  const chains = useQuery(chainTypesQuery);

  const body = queryBody(chains, (data) => {
    const methods: Method[] = [];
    if (data.service) methods.push('service');
    if (data.list.length > 0) methods.push('usdt');
    return methods.length === 0 ? (
      <EmptyState title={t('recharge.unavailableTitle')} text={t('recharge.unavailableText')}>
        <Link className="button" to={customerPath()}>
          {t('recharge.contactService')}
        </Link>
      </EmptyState>
    ) : (
      <RechargeMethods methods={methods} chains={data.list} currency={data.currency || 'USDT'} />
    );
  });
  return (
    <main className="page">
      <PageHeader title={t('recharge.title')} back fallback={TAB_PATHS.mine} />
      {body}
    </main>
  );
}

function RechargeMethods({ methods, chains, currency }: { methods: Method[]; chains: ChainType[]; currency: string }) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<Method>(methods[0] ?? 'service');
  const labels: Record<Method, string> = { service: t('recharge.methodService'), usdt: currency };
  return (
    <div className="form">
      <ChipChoice
        id="recharge-method"
        title={t('recharge.method')}
        segments={methods.map((m) => ({ value: m, label: labels[m] }))}
        value={method}
        onChange={setMethod}
      />
      {method === 'service' ? <ServiceRechargeForm currency={currency} /> : <RechargeForm chains={chains} currency={currency} />}
    </div>
  );
}

/** A titled row of chips choosing one of a few: the recharge method, the chain's protocol. */
function ChipChoice<T extends string>({
  id,
  title,
  segments,
  value,
  onChange,
}: {
  id: string;
  title: string;
  segments: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <section className={styles['wallet-section']} aria-labelledby={id}>
      <h2 id={id} className={styles['wallet-section__title']}>
        {title}
      </h2>
      <SegmentTabs variant="chips" label={title} segments={segments} value={value} onChange={onChange} />
    </section>
  );
}

/** Recharge through customer service: the amount goes into a draft to an agent, who takes it from there. */
function ServiceRechargeForm({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useFormChecks<'amount'>();
  const [amount, setAmount] = useState('');
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const cents = amountCents(amount);
    if (!form.ready([['amount', checkAmount(amount)]]) || cents === null) return;
    void navigate(customerPath(t('recharge.serviceDraft', { amount: formatMoney(cents, t), currency }), { kind: 'recharge', amount: cents, currency }));
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="form__note">{t('recharge.serviceNote')}</p>
      <AmountField
        label={t('recharge.amount', { currency })}
        placeholder={t('recharge.servicePlaceholder')}
        value={amount}
        invalid={form.invalid('amount')}
        onChange={setAmount}
      />
      <FormMessage message={form.message(null)} />
      <SubmitButton label={t('recharge.contactService')} busy={false} blocked={form.blocked} />
    </form>
  );
}

function RechargeForm({ chains, currency }: { chains: ChainType[]; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useFormChecks<Field>();
  const [protocol, setProtocol] = useState<UsdtProtocol>(chains[0]?.protocol ?? 'TRC20');
  const [amount, setAmount] = useState('');
  const [hash, setHash] = useState('');
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
      <EmptyState
        icon="success"
        title={t('recharge.submittedTitle')}
        text={order.held && order.heldMessage ? order.heldMessage : t('recharge.submittedText', { orderNo: order.orderNo })}
      >
        <Link className="button" to={MY_PATHS.pointsDetails}>
          {t('mine.pointsDetails')}
        </Link>
      </EmptyState>
    );
  }

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (submit.isPending) return;
    const cents = amountCents(amount) ?? 0;
    const trimmed = hash.trim();
    const ready = form.ready([
      ['amount', checkAmount(amount)],
      ['amount', cents < chain.minDep ? 'validation.rechargeMin' : null, { min: formatMoney(chain.minDep, t) }],
      ['hash', trimmed ? null : 'validation.txHashRequired'],
      ['hash', TX_HASH[chain.protocol].test(trimmed) ? null : 'validation.txHashFormat'],
    ]);
    if (ready) submit.mutate({ cents, protocol: chain.protocol, hash: trimmed });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <ChipChoice
        id="recharge-protocol"
        title={t('recharge.protocol')}
        segments={chains.map((c) => ({ value: c.protocol, label: c.name }))}
        value={chain.protocol}
        onChange={(value) => {
          setProtocol(value);
          form.setProblem(null);
        }}
      />
      {chain.maxDep ? (
        <p className="form__note" data-testid="recharge-max">
          {t('recharge.maxNote', { min: formatMoney(chain.minDep, t), max: formatMoney(chain.maxDep, t) })}
        </p>
      ) : null}
      <section className={styles['wallet-address']} aria-labelledby="recharge-address">
        <h2 id="recharge-address" className={styles['wallet-section__title']}>
          {t('recharge.address', { network: chain.network })}
        </h2>
        <QrCode value={chain.address} label={t('recharge.addressQr', { name: chain.name })} size={180} />
        <div className={styles['wallet-address__row']}>
          <code className={styles['wallet-address__text']} data-testid="deposit-address">
            {chain.address}
          </code>
          <CopyButton text={chain.address} label={t('recharge.copyAddress')} />
        </div>
        <p className="form__note">{t('recharge.addressNote', { name: chain.name })}</p>
      </section>
      <AmountField
        label={t('recharge.amount', { currency })}
        placeholder={t('recharge.amountPlaceholder', { min: formatMoney(chain.minDep, t) })}
        value={amount}
        invalid={form.invalid('amount')}
        onChange={setAmount}
      />
      <TextField
        label={t('recharge.txHash')}
        name="tx-hash"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('recharge.txHashPlaceholder')}
        value={hash}
        invalid={form.invalid('hash')}
        onChange={setHash}
      />
      <FormMessage message={form.message(submit.error?.message)} />
      <SubmitButton label={t('recharge.submit')} busy={submit.isPending} blocked={form.blocked} />
    </form>
  );
}

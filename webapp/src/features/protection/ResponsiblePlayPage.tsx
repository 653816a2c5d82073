import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LIMIT_KINDS,
  LIMIT_PERIODS,
  protectionApi,
  type ExclusionRequest,
  type Limit,
  type LimitKind,
  type LimitPeriod,
  type ProtectionStatus,
} from '../../api/protection';
import { ConfirmDialog } from '../../components/dialog/ConfirmDialog';
import { AMOUNT_PROBLEM_KEYS } from '../../components/form/amountMessages';
import { FormMessage } from '../../components/form/FormMessage';
import { SubmitButton } from '../../components/form/SubmitButton';
import { TextField } from '../../components/form/TextField';
import { PageHeader } from '../../components/page-header/PageHeader';
import { queryBody } from '../../components/status/QueryGate';
import { formatMoney } from '../../format';
import { parseAmount } from '../../format/amount';
import { formatDateTime } from '../../format/timeAgo';
import { MY_PATHS } from '../../navigation/paths';
import { showToast } from '../../state/toast';
import { protectionKeys, protectionStatusQuery } from './queries';
import styles from './protection.module.css';

/** A whole number typed in a field, within min..max, or null. */
function wholeIn(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= min && n <= max ? n : null;
}

/** Responsible play: deposit and loss limits, the reality check, cool-off and self-exclusion. */
export function ResponsiblePlayPage() {
  const { t } = useTranslation();
  const status = useQuery(protectionStatusQuery);
  const body = queryBody(status, (data) => (
    <>
      <p className={styles.note}>{t('protection.intro')}</p>
      <ExclusionBanner status={data} />
      <LimitsSection limits={data.limits} />
      <RealitySection minutes={data.realityMinutes} />
      <BreakSection />
    </>
  ));
  return (
    <main className="page" data-testid="responsible-play">
      <PageHeader title={t('protection.title')} back fallback={MY_PATHS.safetySetting} />
      <div className="page-body">{body}</div>
    </main>
  );
}

function ExclusionBanner({ status }: { status: ProtectionStatus }) {
  const { t } = useTranslation();
  const e = status.exclusion;
  if (!e) return null;
  let text: string;
  if (e.kind === 'cooloff') text = t('protection.exclusion.activeCooloff', { until: formatDateTime(e.endsAt, t) });
  else if (e.endsAt === 0) text = t('protection.exclusion.activePermanent');
  else text = t('protection.exclusion.activeSelf', { until: formatDateTime(e.endsAt, t) });
  return (
    <p className={styles.active} role="status" data-testid="exclusion-active" data-kind={e.kind}>
      {text}
    </p>
  );
}

function LimitRow({ limit }: { limit: Limit }) {
  const { t } = useTranslation();
  const name = `${t(`protection.limits.period.${limit.period}`)} · ${t(`protection.limits.kind.${limit.kind}`)}`;
  return (
    <li className={styles.limit} data-limit={`${limit.kind}.${limit.period}`} data-amount={limit.amount}>
      <span>{name}</span>
      <strong>{limit.amount > 0 ? formatMoney(limit.amount, t) : t('protection.limits.none')}</strong>
      {limit.amount > 0 ? (
        <span className={styles.limit__detail}>
          {t('protection.limits.used', { used: formatMoney(limit.used, t), resets: formatDateTime(limit.resetsAt, t) })}
        </span>
      ) : null}
      {limit.pending ? (
        <span className={styles.limit__detail} data-testid="limit-pending">
          {limit.nextAmount > 0
            ? t('protection.limits.pending', { amount: formatMoney(limit.nextAmount, t), at: formatDateTime(limit.nextAt, t) })
            : t('protection.limits.pendingRemoval', { at: formatDateTime(limit.nextAt, t) })}
        </span>
      ) : null}
    </li>
  );
}

function LimitsSection({ limits }: { limits: Limit[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<LimitKind>('loss');
  const [period, setPeriod] = useState<LimitPeriod>('day');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (cents: number) => protectionApi.setLimit(kind, period, cents),
    onSuccess: (limit) => {
      showToast(limit.pending ? t('protection.limits.savedLater') : t('protection.limits.saved'));
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: protectionKeys.all });
    },
  });
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = parseAmount(amount, { allowZero: true });
    if (!parsed.ok) {
      setProblem(t(AMOUNT_PROBLEM_KEYS[parsed.problem]));
      return;
    }
    setProblem(null);
    save.mutate(parsed.cents);
  };
  return (
    <section className={styles.section} aria-labelledby="limits-title">
      <h2 id="limits-title" className={styles.section__title}>
        {t('protection.limits.title')}
      </h2>
      <ul className={styles.limits}>
        {limits.map((l) => (
          <LimitRow key={`${l.kind}.${l.period}`} limit={l} />
        ))}
      </ul>
      <p className={styles.note}>{t('protection.limits.rule')}</p>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="limit-form">
        <div className={styles.row}>
          <select
            className={styles.select}
            aria-label={t('protection.limits.kindLabel')}
            name="kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as LimitKind);
            }}
          >
            {LIMIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`protection.limits.kind.${k}`)}
              </option>
            ))}
          </select>
          <select
            className={styles.select}
            aria-label={t('protection.limits.periodLabel')}
            name="period"
            value={period}
            onChange={(e) => {
              setPeriod(e.target.value as LimitPeriod);
            }}
          >
            {LIMIT_PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`protection.limits.period.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <TextField label={t('protection.limits.amount')} name="limit-amount" inputMode="decimal" value={amount} invalid={problem !== null} onChange={setAmount} />
        <FormMessage message={problem ?? save.error?.message} />
        <SubmitButton label={t('protection.limits.save')} busy={save.isPending} />
      </form>
    </section>
  );
}

function RealitySection({ minutes }: { minutes: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (n: number) => protectionApi.setReality(n),
    onSuccess: () => {
      showToast(t('protection.reality.saved'));
      setText('');
      void queryClient.invalidateQueries({ queryKey: protectionKeys.all });
    },
  });
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    const n = wholeIn(text, 0, 240);
    if (n === null) {
      setProblem(t('protection.reality.invalid'));
      return;
    }
    setProblem(null);
    save.mutate(n);
  };
  return (
    <section className={styles.section} aria-labelledby="reality-title">
      <h2 id="reality-title" className={styles.section__title}>
        {t('protection.reality.title')}
      </h2>
      <p className={styles.note} data-testid="reality-current" data-minutes={minutes}>
        {minutes > 0 ? t('protection.reality.every', { count: minutes }) : t('protection.reality.off')}
      </p>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="reality-form">
        <TextField label={t('protection.reality.minutes')} name="reality-minutes" inputMode="numeric" value={text} invalid={problem !== null} onChange={setText} />
        <FormMessage message={problem ?? save.error?.message} />
        <SubmitButton label={t('protection.reality.save')} busy={save.isPending} />
      </form>
    </section>
  );
}

function BreakSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [days, setDays] = useState('');
  const [months, setMonths] = useState('');
  const [permanent, setPermanent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<ExclusionRequest | null>(null);
  const start = useMutation({
    mutationFn: (request: ExclusionRequest) => protectionApi.exclude(request),
    onSettled: () => {
      setAsking(null);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: protectionKeys.all });
    },
  });
  const askCoolOff = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const n = wholeIn(days, 1, 42);
    setProblem(n === null ? t('protection.exclusion.daysInvalid') : null);
    if (n !== null) setAsking({ kind: 'cooloff', days: n });
  };
  const askSelf = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (permanent) {
      setProblem(null);
      setAsking({ kind: 'selfexclusion', permanent: true });
      return;
    }
    const n = wholeIn(months, 6, 60);
    setProblem(n === null ? t('protection.exclusion.monthsInvalid') : null);
    if (n !== null) setAsking({ kind: 'selfexclusion', months: n });
  };
  let confirmText = '';
  if (asking?.kind === 'cooloff') confirmText = t('protection.exclusion.confirmCooloff', { count: asking.days });
  else if (asking && 'permanent' in asking) confirmText = t('protection.exclusion.confirmPermanent');
  else if (asking) confirmText = t('protection.exclusion.confirmSelf', { count: asking.months });
  return (
    <section className={styles.section} aria-labelledby="break-title">
      <h2 id="break-title" className={styles.section__title}>
        {t('protection.exclusion.title')}
      </h2>
      <form className="form" onSubmit={askCoolOff} noValidate data-testid="cooloff-form">
        <TextField label={t('protection.exclusion.cooloff')} name="cooloff-days" inputMode="numeric" value={days} onChange={setDays} />
        <SubmitButton label={t('protection.exclusion.start')} busy={start.isPending} />
      </form>
      <form className="form" onSubmit={askSelf} noValidate data-testid="selfexclusion-form">
        <TextField
          label={t('protection.exclusion.self')}
          name="selfexclusion-months"
          inputMode="numeric"
          value={months}
          disabled={permanent}
          onChange={setMonths}
        />
        <label className={styles.checkbox}>
          <input
            type="checkbox"
            name="permanent"
            checked={permanent}
            onChange={(e) => {
              setPermanent(e.target.checked);
            }}
          />
          {t('protection.exclusion.permanent')}
        </label>
        <SubmitButton label={t('protection.exclusion.start')} busy={start.isPending} />
      </form>
      <FormMessage message={problem ?? start.error?.message} />
      <ConfirmDialog
        open={asking !== null}
        title={t('protection.exclusion.confirmTitle')}
        text={confirmText}
        danger
        busy={start.isPending}
        onConfirm={() => {
          if (asking) start.mutate(asking);
        }}
        onCancel={() => {
          setAsking(null);
        }}
      />
    </section>
  );
}

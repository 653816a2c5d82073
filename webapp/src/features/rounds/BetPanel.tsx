import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../api/client';
import { ConfirmDialog } from '../../components/dialog/ConfirmDialog';
import { BET_CONTENTS, newBetId, roundsApi, type BetContent, type BetInput, type Round } from '../../api/rounds';
import { formatMoney } from '../../format';
import { showToast } from '../../state/toast';
import { centsToAmountText, parseAmount, type AmountResult } from '../../format/amount';
import { AMOUNT_PROBLEM_KEYS } from '../../components/form/amountMessages';
import { checkBet, chipValues, type BetProblem } from './betAmount';
import { confirmAboveAtom, lastBetAtom, needsConfirmation, readLastBet, readThreshold } from './betMemory';
import { roundsKeys } from './queries';

interface BetPanelProps {
  round: Round;
  /** Betting is open now (server clock). */
  open: boolean;
  /** Available points in cents, null while unknown. */
  balance: number | null;
}

const SUBMIT_THROTTLE_MS = 500;

/** BIG / SMALL / SINGLE / DOUBLE, an amount from chips or typed, and the bet button. */
export function BetPanel({ round, open, balance }: BetPanelProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [storedLast, setStoredLast] = useAtom(lastBetAtom);
  const [storedThreshold, setStoredThreshold] = useAtom(confirmAboveAtom);
  const lastBet = readLastBet(storedLast);
  const threshold = readThreshold(storedThreshold);
  const [content, setContent] = useState<BetContent | null>(null);
  // The amount starts from the player's last choice (quick amounts remember it).
  // Until the player picks or types one, the amount is the last one they bet.
  const [typed, setPoints] = useState<string | null>(null);
  const points = typed ?? (lastBet ? centsToAmountText(lastBet.cents) : '');
  const [thresholdText, setThresholdText] = useState(threshold > 0 ? centsToAmountText(threshold) : '');
  const [thresholdProblem, setThresholdProblem] = useState<ParseKeys | null>(null);
  // A bet above the threshold waits here for the player's yes.
  const [confirming, setConfirming] = useState<BetInput | null>(null);
  const [problem, setProblem] = useState<BetProblem | null>(null);
  const lastSubmit = useRef(Number.NEGATIVE_INFINITY);
  // The same bet sent again (after a failure nobody can tell apart from a lost reply) keeps its
  // id, so the server answers with the bet it may already hold instead of taking it twice.
  const pending = useRef<{ key: string; betId: string } | null>(null);

  const bet = useMutation({
    mutationFn: (input: BetInput) => roundsApi.bet(input, { quiet: true }),
    onSuccess: (placed) => {
      pending.current = null;
      showToast(t('rounds.bet.placed', { amount: formatMoney(placed.amount, t), content: t(`rounds.content.${placed.content}`) }));
      setStoredLast({ content: placed.content, cents: placed.amount });
      void client.invalidateQueries({ queryKey: roundsKeys.window(round.windowId) });
      void client.invalidateQueries({ queryKey: roundsKeys.lobby });
    },
    onError: (error) => {
      // A refusal from the server is final for this id; a network failure may have gone through.
      if (error instanceof ApiError && error.code > 0) pending.current = null;
    },
  });

  const amount = parseAmount(points);

  const place = (chosen: BetContent | null, typedAmount: AmountResult, now: number): void => {
    if (bet.isPending || now - lastSubmit.current < SUBMIT_THROTTLE_MS) return;
    lastSubmit.current = now;
    const found = checkBet({ content: chosen, amount: typedAmount, minBet: round.minBet, maxBet: round.maxBet, balance, bettingOpen: open });
    setProblem(found);
    if (found || !chosen || !typedAmount.ok) return;
    const cents = typedAmount.cents;
    bet.reset();
    const key = `${round.issue}|${chosen}|${cents}`;
    if (pending.current?.key !== key) pending.current = { key, betId: newBetId() };
    const input = { windowId: round.windowId, issue: round.issue, content: chosen, amount: cents, betId: pending.current.betId };
    if (needsConfirmation(cents, threshold)) setConfirming(input);
    else bet.mutate(input);
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    place(content, amount, event.timeStamp);
  };

  const repeat = (event: SyntheticEvent<HTMLButtonElement>): void => {
    if (!lastBet) return;
    setContent(lastBet.content);
    setPoints(centsToAmountText(lastBet.cents));
    place(lastBet.content, { ok: true, cents: lastBet.cents }, event.timeStamp);
  };

  let message: string | null = null;
  if (problem) {
    switch (problem.kind) {
      case 'closed':
        message = t('rounds.bet.closed');
        break;
      case 'content':
        message = t('rounds.bet.chooseContent');
        break;
      case 'amount':
        message = problem.problem === 'required' ? t('rounds.bet.enterAmount') : t(AMOUNT_PROBLEM_KEYS[problem.problem]);
        break;
      case 'min':
        message = t('rounds.bet.min', { min: formatMoney(problem.min, t) });
        break;
      case 'max':
        message = t('rounds.bet.max', { max: formatMoney(problem.max, t) });
        break;
      case 'balance':
        message = t('rounds.bet.insufficient');
        break;
    }
  } else if (bet.error) {
    message = bet.error.message;
  } else if (thresholdProblem) {
    message = t(thresholdProblem);
  }

  const chips = chipValues(round.minBet, round.maxBet);

  return (
    <form className="bet-panel" onSubmit={submit} noValidate aria-labelledby="bet-panel-title">
      <h2 id="bet-panel-title" className="section-title">
        {t('rounds.bet.title')}
        <span className="bet-panel__odds">{t('rounds.bet.odds', { odds: round.odds })}</span>
      </h2>
      <div className="bet-panel__options" role="radiogroup" aria-label={t('rounds.bet.contentLabel')}>
        {BET_CONTENTS.map((option) => (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={content === option}
            className={`bet-option bet-option--${option.toLowerCase()}${content === option ? ' bet-option--selected' : ''}`}
            data-content={option}
            disabled={!open}
            onClick={() => {
              setContent(option);
              setProblem(null);
            }}
          >
            <span className="bet-option__name">{t(`rounds.content.${option}`)}</span>
            <span className="bet-option__hint">{t(`rounds.contentHint.${option}`)}</span>
          </button>
        ))}
      </div>
      <div className="bet-panel__chips" role="group" aria-label={t('rounds.bet.chips')}>
        {chips.map((chip) => (
          <button
            key={chip}
            type="button"
            className={`chip${points === String(chip) ? ' chip--selected' : ''}`}
            aria-pressed={points === String(chip)}
            disabled={!open}
            onClick={() => {
              setPoints(String(chip));
              setProblem(null);
            }}
          >
            {chip}
          </button>
        ))}
      </div>
      <label className="bet-panel__amount">
        <span className="bet-panel__amount-label">{t('rounds.bet.amount')}</span>
        <input
          className="text-input bet-panel__input"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={t('rounds.bet.amountPlaceholder', {
            min: formatMoney(round.minBet, t),
            max: formatMoney(round.maxBet, t),
          })}
          value={points}
          disabled={!open}
          aria-invalid={problem !== null && problem.kind !== 'content' && problem.kind !== 'closed'}
          onChange={(event) => {
            setPoints(event.target.value);
            setProblem(null);
          }}
        />
      </label>
      <p className="bet-panel__balance">
        {t('rounds.bet.balance', { amount: balance === null ? '—' : formatMoney(balance, t) })}
      </p>
      <p className="form-message" role="alert">
        {message}
      </p>
      {lastBet ? (
        <button
          type="button"
          className="button button--secondary button--block bet-panel__repeat"
          data-repeat={`${lastBet.content}:${lastBet.cents}`}
          disabled={!open || bet.isPending}
          onClick={repeat}
        >
          {t('rounds.bet.repeat', { content: t(`rounds.content.${lastBet.content}`), amount: formatMoney(lastBet.cents, t) })}
        </button>
      ) : null}
      <button type="submit" className="button button--block bet-panel__submit" disabled={!open || bet.isPending}>
        {bet.isPending ? t('rounds.bet.submitting') : open ? t('rounds.bet.submit') : t('rounds.bet.closedButton')}
      </button>
      <label className="bet-panel__threshold">
        <span>{t('rounds.bet.confirmAbove')}</span>
        <input
          className="bet-panel__threshold-input"
          name="confirmAbove"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('rounds.bet.confirmAboveOff')}
          value={thresholdText}
          aria-invalid={thresholdProblem !== null}
          onChange={(event) => {
            // Kept as typed; an amount that is refused leaves the stored threshold as it was.
            const text = event.target.value;
            setThresholdText(text);
            const parsed = parseAmount(text, { allowZero: true });
            if (text.trim() === '') {
              setThresholdProblem(null);
              setStoredThreshold({ cents: 0 });
            } else if (parsed.ok) {
              setThresholdProblem(null);
              setStoredThreshold({ cents: parsed.cents });
            } else {
              setThresholdProblem(AMOUNT_PROBLEM_KEYS[parsed.problem]);
            }
          }}
        />
      </label>
      {confirming ? (
        <ConfirmDialog
          title={t('rounds.bet.confirmTitle')}
          text={t('rounds.bet.confirmText', {
            amount: formatMoney(confirming.amount, t),
            content: t(`rounds.content.${confirming.content}`),
            issue: confirming.issue,
          })}
          confirmLabel={t('rounds.bet.submit')}
          onConfirm={() => {
            const input = confirming;
            setConfirming(null);
            bet.mutate(input);
          }}
          onCancel={() => {
            setConfirming(null);
            pending.current = null;
          }}
        />
      ) : null}
    </form>
  );
}

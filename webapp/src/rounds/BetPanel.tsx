import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { BET_CONTENTS, newBetId, roundsApi, type BetContent, type BetInput, type Round } from '../api/rounds';
import { formatMoney } from '../format';
import { showToast } from '../state/toast';
import { checkBet, chipValues, pointsToCents, sanitizeDigits, type BetProblem } from './betAmount';
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
  const [content, setContent] = useState<BetContent | null>(null);
  const [points, setPoints] = useState('');
  const [problem, setProblem] = useState<BetProblem | null>(null);
  const lastSubmit = useRef(0);
  // The same bet sent again (after a failure nobody can tell apart from a lost reply) keeps its
  // id, so the server answers with the bet it may already hold instead of taking it twice.
  const pending = useRef<{ key: string; betId: string } | null>(null);

  const bet = useMutation({
    mutationFn: (input: BetInput) => roundsApi.bet(input, { quiet: true }),
    onSuccess: (placed) => {
      pending.current = null;
      showToast(t('rounds.bet.placed', { amount: formatMoney(placed.amount, t), content: t(`rounds.content.${placed.content}`) }));
      setPoints('');
      void client.invalidateQueries({ queryKey: roundsKeys.window(round.windowId) });
      void client.invalidateQueries({ queryKey: roundsKeys.lobby });
    },
    onError: (error) => {
      // A refusal from the server is final for this id; a network failure may have gone through.
      if (error instanceof ApiError && error.code > 0) pending.current = null;
    },
  });

  const amountCents = pointsToCents(points);

  const submit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const now = Date.now();
    if (bet.isPending || now - lastSubmit.current < SUBMIT_THROTTLE_MS) return;
    lastSubmit.current = now;
    const found = checkBet({ content, amountCents, minBet: round.minBet, maxBet: round.maxBet, balance, bettingOpen: open });
    setProblem(found);
    if (found || !content || amountCents === null) return;
    bet.reset();
    const key = `${round.issue}|${content}|${amountCents}`;
    if (pending.current?.key !== key) pending.current = { key, betId: newBetId() };
    bet.mutate({ windowId: round.windowId, issue: round.issue, content, amount: amountCents, betId: pending.current.betId });
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
        message = t('rounds.bet.enterAmount');
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
          className="bet-panel__input"
          name="amount"
          inputMode="numeric"
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
            setPoints(sanitizeDigits(event.target.value));
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
      <button type="submit" className="button button--block bet-panel__submit" disabled={!open || bet.isPending}>
        {bet.isPending ? t('rounds.bet.submitting') : open ? t('rounds.bet.submit') : t('rounds.bet.closedButton')}
      </button>
    </form>
  );
}

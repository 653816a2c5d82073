import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../api/client';
import { ConfirmDialog } from '../../components/dialog/ConfirmDialog';
import { BET_CONTENTS, newBetId, roundsApi, type BetContent, type BetInput, type Round, type SlipInput } from '../../api/rounds';
import { formatMoney } from '../../format';
import { showToast } from '../../state/toast';
import { centsToAmountText, parseAmount, type AmountResult } from '../../format/amount';
import { AMOUNT_PROBLEM_KEYS } from '../../components/form/amountMessages';
import { checkBet, chipValues, type BetProblem } from './betAmount';
import { confirmAboveAtom, lastBetAtom, needsConfirmation, readLastPlay, readThreshold, storedPlay, type LastBet } from './betMemory';
import { SlipConfirm } from './SlipConfirm';
import { roundsKeys } from './queries';

interface BetPanelProps {
  round: Round;
  /** Betting is open now (server clock). */
  open: boolean;
  /** Available points in cents, null while unknown. */
  balance: number | null;
}

const SUBMIT_THROTTLE_MS = 500;

/**
 * BIG / SMALL / SINGLE / DOUBLE, an amount from chips or typed, and the bet button. With the
 * bet slip switched on, several contents can be picked: each gets the amount, and the slip is
 * sent as one (accepted or refused together) after one confirmation showing every selection
 * and the total.
 */
export function BetPanel({ round, open, balance }: BetPanelProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [storedLast, setStoredLast] = useAtom(lastBetAtom);
  const [storedThreshold, setStoredThreshold] = useAtom(confirmAboveAtom);
  // The last play: one bet, or a slip's selections (repeated whole).
  const lastPlay = readLastPlay(storedLast);
  const lastBet = lastPlay?.[0] ?? null;
  const threshold = readThreshold(storedThreshold);
  // Several contents only with the slip switched on; otherwise picking one replaces the other.
  const [multi, setMulti] = useState(false);
  const [picked, setPicked] = useState<BetContent[]>([]);
  const content = picked[0] ?? null;
  // The amount starts from the player's last choice (quick amounts remember it).
  // Until the player picks or types one, the amount is the last one they bet.
  const [typed, setPoints] = useState<string | null>(null);
  const points = typed ?? (lastBet ? centsToAmountText(lastBet.cents) : '');
  const [thresholdText, setThresholdText] = useState(threshold > 0 ? centsToAmountText(threshold) : '');
  const [thresholdProblem, setThresholdProblem] = useState<ParseKeys | null>(null);
  // A bet above the threshold waits here for the player's yes.
  const [confirming, setConfirming] = useState<BetInput | null>(null);
  // A slip always waits here for the player's yes.
  const [confirmingSlip, setConfirmingSlip] = useState<SlipInput | null>(null);
  const [problem, setProblem] = useState<BetProblem | null>(null);
  const lastSubmit = useRef(Number.NEGATIVE_INFINITY);
  // The same bet sent again (after a failure nobody can tell apart from a lost reply) keeps its
  // id, so the server answers with the bet it may already hold instead of taking it twice.
  const pending = useRef<{ key: string; betId: string } | null>(null);
  const pendingSlip = useRef<{ key: string; slipId: string } | null>(null);

  const bet = useMutation({
    mutationFn: (input: BetInput) => roundsApi.bet(input, { quiet: true }),
    onSuccess: (placed) => {
      pending.current = null;
      showToast(t('rounds.bet.placed', { amount: formatMoney(placed.amount, t), content: t(`rounds.content.${placed.content}`) }));
      setStoredLast(storedPlay([{ content: placed.content, cents: placed.amount }]));
      void client.invalidateQueries({ queryKey: roundsKeys.window(round.windowId) });
      void client.invalidateQueries({ queryKey: roundsKeys.lobby });
    },
    onError: (error) => {
      // A refusal from the server is final for this id; a network failure may have gone through.
      if (error instanceof ApiError && error.code > 0) pending.current = null;
    },
  });

  const slip = useMutation({
    mutationFn: (input: SlipInput) => roundsApi.betSlip(input, { quiet: true }),
    onSuccess: (placed) => {
      pendingSlip.current = null;
      showToast(t('rounds.bet.slipPlaced', { count: placed.bets.length, amount: formatMoney(placed.total, t) }));
      setStoredLast(storedPlay(placed.bets.map((b) => ({ content: b.content, cents: b.amount }))));
      void client.invalidateQueries({ queryKey: roundsKeys.window(round.windowId) });
      void client.invalidateQueries({ queryKey: roundsKeys.lobby });
    },
    onError: (error) => {
      // As for a bet: a refusal is final for this slip id, a lost reply keeps it for the resend.
      if (error instanceof ApiError && error.code > 0) pendingSlip.current = null;
    },
  });
  const busy = bet.isPending || slip.isPending;

  const amount = parseAmount(points);

  const place = (chosen: BetContent | null, typedAmount: AmountResult, now: number): void => {
    if (busy || now - lastSubmit.current < SUBMIT_THROTTLE_MS) return;
    lastSubmit.current = now;
    const found = checkBet({ content: chosen, amount: typedAmount, minBet: round.minBet, maxBet: round.maxBet, balance, bettingOpen: open });
    setProblem(found);
    if (found || !chosen || !typedAmount.ok) return;
    const cents = typedAmount.cents;
    bet.reset();
    slip.reset();
    const key = `${round.issue}|${chosen}|${cents}`;
    if (pending.current?.key !== key) pending.current = { key, betId: newBetId() };
    const input = { windowId: round.windowId, issue: round.issue, content: chosen, amount: cents, betId: pending.current.betId };
    if (needsConfirmation(cents, threshold)) setConfirming(input);
    else bet.mutate(input);
  };

  // A slip: every selection within the round's limits and the total within the balance, then
  // the confirmation (always, whatever the threshold). The same slip tried again keeps its id.
  const placeSlip = (selections: LastBet[], now: number): void => {
    if (busy || now - lastSubmit.current < SUBMIT_THROTTLE_MS) return;
    lastSubmit.current = now;
    const total = selections.reduce((sum, s) => sum + s.cents, 0);
    let found: BetProblem | null = null;
    for (const s of selections) {
      found ??= checkBet({ content: s.content, amount: { ok: true, cents: s.cents }, minBet: round.minBet, maxBet: round.maxBet, balance: null, bettingOpen: open });
    }
    if (!found && balance !== null && total > balance) found = { kind: 'balance' };
    setProblem(found);
    if (found) return;
    slip.reset();
    bet.reset();
    const key = `${round.issue}|${selections.map((s) => `${s.content}:${s.cents}`).join(',')}`;
    if (pendingSlip.current?.key !== key) pendingSlip.current = { key, slipId: newBetId() };
    setConfirmingSlip({
      windowId: round.windowId,
      issue: round.issue,
      slipId: pendingSlip.current.slipId,
      selections: selections.map((s) => ({ content: s.content, amount: s.cents })),
    });
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (picked.length < 2) {
      place(content, amount, event.timeStamp);
      return;
    }
    if (!amount.ok) {
      // The amount's own problem (required, not a number, ...), as for a single bet.
      place(content, amount, event.timeStamp);
      return;
    }
    placeSlip(picked.map((c) => ({ content: c, cents: amount.cents })), event.timeStamp);
  };

  const repeat = (event: SyntheticEvent<HTMLButtonElement>): void => {
    if (!lastPlay || !lastBet) return;
    setPicked(lastPlay.map((b) => b.content));
    setPoints(centsToAmountText(lastBet.cents));
    if (lastPlay.length > 1) {
      setMulti(true);
      placeSlip(lastPlay, event.timeStamp);
    } else {
      place(lastBet.content, { ok: true, cents: lastBet.cents }, event.timeStamp);
    }
  };

  const pick = (option: BetContent): void => {
    setProblem(null);
    if (!multi) {
      setPicked([option]);
      return;
    }
    // Kept in the options' order, so the slip reads the same whichever was tapped first.
    const next = picked.includes(option) ? picked.filter((c) => c !== option) : [...picked, option];
    setPicked(BET_CONTENTS.filter((c) => next.includes(c)));
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
  } else if (slip.error) {
    message = slip.error.message;
  } else if (thresholdProblem) {
    message = t(thresholdProblem);
  }

  const chips = chipValues(round.minBet, round.maxBet);
  const slipTotal = picked.length > 1 && amount.ok ? amount.cents * picked.length : null;
  const lastTotal = lastPlay ? lastPlay.reduce((sum, b) => sum + b.cents, 0) : 0;

  return (
    <form className="bet-panel" onSubmit={submit} noValidate aria-labelledby="bet-panel-title">
      <h2 id="bet-panel-title" className="section-title">
        {t('rounds.bet.title')}
        <span className="bet-panel__odds">{t('rounds.bet.odds', { odds: round.odds })}</span>
      </h2>
      <div className="bet-panel__options" role={multi ? 'group' : 'radiogroup'} aria-label={t('rounds.bet.contentLabel')}>
        {BET_CONTENTS.map((option) => (
          <button
            key={option}
            type="button"
            role={multi ? 'checkbox' : 'radio'}
            aria-checked={picked.includes(option)}
            className={`bet-option bet-option--${option.toLowerCase()}${picked.includes(option) ? ' bet-option--selected' : ''}`}
            data-content={option}
            disabled={!open}
            onClick={() => {
              pick(option);
            }}
          >
            <span className="bet-option__name">{t(`rounds.content.${option}`)}</span>
            <span className="bet-option__hint">{t(`rounds.contentHint.${option}`)}</span>
          </button>
        ))}
      </div>
      <label className="bet-panel__slip-mode">
        <input
          type="checkbox"
          name="slipMode"
          checked={multi}
          disabled={!open}
          onChange={(event) => {
            const on = event.target.checked;
            setMulti(on);
            if (!on) setPicked((p) => p.slice(0, 1));
            setProblem(null);
          }}
        />
        <span>{t('rounds.bet.slipMode')}</span>
      </label>
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
      {slipTotal !== null ? (
        <p className="bet-panel__slip-total" data-total={slipTotal}>
          {t('rounds.bet.slipSummary', { count: picked.length, amount: formatMoney(slipTotal, t) })}
        </p>
      ) : null}
      <p className="bet-panel__balance">
        {t('rounds.bet.balance', { amount: balance === null ? '—' : formatMoney(balance, t) })}
      </p>
      <p className="form-message" role="alert">
        {message}
      </p>
      {lastPlay && lastBet ? (
        <button
          type="button"
          className="button button--secondary button--block bet-panel__repeat"
          data-repeat={lastPlay.map((b) => `${b.content}:${b.cents}`).join(',')}
          disabled={!open || busy}
          onClick={repeat}
        >
          {lastPlay.length > 1
            ? t('rounds.bet.repeatSlip', {
                contents: lastPlay.map((b) => t(`rounds.content.${b.content}`)).join(' + '),
                amount: formatMoney(lastTotal, t),
              })
            : t('rounds.bet.repeat', { content: t(`rounds.content.${lastBet.content}`), amount: formatMoney(lastBet.cents, t) })}
        </button>
      ) : null}
      <button type="submit" className="button button--block bet-panel__submit" disabled={!open || busy}>
        {busy ? t('rounds.bet.submitting') : open ? t('rounds.bet.submit') : t('rounds.bet.closedButton')}
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
      {confirmingSlip ? (
        <SlipConfirm
          slip={confirmingSlip}
          onConfirm={() => {
            const input = confirmingSlip;
            setConfirmingSlip(null);
            slip.mutate(input);
          }}
          onCancel={() => {
            setConfirmingSlip(null);
            pendingSlip.current = null;
          }}
        />
      ) : null}
    </form>
  );
}

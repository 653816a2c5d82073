import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { roundsApi, type RoundResult } from '../../api/rounds';
import { VerificationUnavailableError, verifyBetList, verifyRound } from './fairness';

interface VerifyDialogProps {
  result: RoundResult;
  onClose: () => void;
}

function Check({ ok, label, field }: { ok: boolean; label: string; field?: string }) {
  return (
    <p className={`verify__check verify__check--${ok ? 'ok' : 'bad'}`} data-ok={ok} data-check={field}>
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {label}
    </p>
  );
}

/**
 * Recomputes the round in this browser with Web Crypto: SHA-256 of the revealed seed against
 * the hash published before betting, the bet list against the hash committed at the close, and
 * the digits from HMAC-SHA256(seed, issue[:betsHash:beaconRound:beaconValue]). Every input is
 * shown, so the same can be done with standard tools (docs/ROUNDS.md).
 */
export function VerifyDialog({ result, onClose }: VerifyDialogProps) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const beacon = (result.beaconRound ?? 0) > 0;
  const check = useQuery({
    queryKey: ['rounds', 'verify', result.windowId, result.issue, result.serverSeed, result.beaconValue ?? ''],
    queryFn: () => verifyRound(result),
    staleTime: Infinity,
    retry: false,
  });
  const betList = useQuery({
    queryKey: ['rounds', 'verify', 'bets', result.windowId, result.issue],
    queryFn: async () => verifyBetList(await roundsApi.roundBets(result.windowId, result.issue, { quiet: true })),
    enabled: Boolean(result.betsHash),
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  const v = check.data;
  const list = betList.data;
  // A round that committed to its bet list is verified only with the list checked too.
  const verified = v ? v.verified && (!result.betsHash || list?.matches === true) : false;
  const listPending = Boolean(result.betsHash) && betList.isPending;
  return (
    <div className="sheet-backdrop" onClick={onClose} role="presentation">
      <section
        className="sheet verify"
        role="dialog"
        aria-modal="true"
        aria-labelledby="verify-title"
        onClick={(event) => {
          event.stopPropagation();
        }}
      >
        <header className="sheet__header">
          <h2 id="verify-title" className="sheet__title">
            {t('rounds.verify.title', { issue: result.issue })}
          </h2>
          <button ref={closeRef} type="button" className="sheet__close" onClick={onClose} aria-label={t('discover.close')}>
            ×
          </button>
        </header>
        <dl className="verify__facts">
          <dt>{t('rounds.verify.issue')}</dt>
          <dd className="mono">{result.issue}</dd>
          <dt>{t('rounds.verify.seedHash')}</dt>
          <dd className="mono" data-field="seedHash">{result.seedHash}</dd>
          <dt>{t('rounds.verify.serverSeed')}</dt>
          <dd className="mono" data-field="serverSeed">{result.serverSeed}</dd>
          {result.betsHash ? (
            <>
              <dt>{t('rounds.verify.betsHash')}</dt>
              <dd className="mono" data-field="betsHash">{result.betsHash}</dd>
            </>
          ) : null}
          {beacon ? (
            <>
              <dt>{t('rounds.verify.beaconRound')}</dt>
              <dd className="mono" data-field="beaconRound">
                {result.beaconUrl ? (
                  <a href={result.beaconUrl} target="_blank" rel="noreferrer noopener">
                    {result.beaconRound}
                  </a>
                ) : (
                  result.beaconRound
                )}
                {result.beaconAt ? ` · ${new Date(result.beaconAt).toISOString()}` : null}
              </dd>
              <dt>{t('rounds.verify.beaconValue')}</dt>
              <dd className="mono" data-field="beaconValue">{result.beaconValue}</dd>
            </>
          ) : null}
          <dt>{t('rounds.verify.published')}</dt>
          <dd className="mono">
            {result.digits.join(' + ')} = {result.sum}
          </dd>
        </dl>
        {beacon ? null : (
          <p className="muted-note" data-field="foreseeable">
            {t('rounds.verify.foreseeable')}
          </p>
        )}
        {check.isPending ? <p className="muted-note">{t('rounds.verify.computing')}</p> : null}
        {check.error ? (
          <p className="form-message" role="alert">
            {check.error instanceof VerificationUnavailableError ? t('rounds.verify.unavailable') : t('rounds.verify.failed')}
          </p>
        ) : null}
        {v ? (
          <div className="verify__computed" data-verified={verified}>
            <h3 className="verify__subtitle">{t('rounds.verify.inBrowser')}</h3>
            <dl className="verify__facts">
              <dt>{t('rounds.verify.computedHash')}</dt>
              <dd className="mono" data-field="computedHash">{v.computedHash}</dd>
              {list ? (
                <>
                  <dt>{t('rounds.verify.computedBetsHash', { count: list.count })}</dt>
                  <dd className="mono" data-field="computedBetsHash">{list.computedHash}</dd>
                </>
              ) : null}
              <dt>{t('rounds.verify.message')}</dt>
              <dd className="mono" data-field="message">{v.message}</dd>
              <dt>{t('rounds.verify.hmac')}</dt>
              <dd className="mono" data-field="hmac">{v.hmac}</dd>
              <dt>{t('rounds.verify.digits')}</dt>
              <dd className="mono" data-field="digits">
                {v.digits.join(' + ')} = {v.sum} · {v.outcome.map((o) => t(`rounds.content.${o}`)).join(' · ')}
              </dd>
            </dl>
            <Check ok={v.hashMatches} label={v.hashMatches ? t('rounds.verify.hashOk') : t('rounds.verify.hashBad')} />
            {list ? (
              <Check
                ok={list.matches}
                field="betList"
                label={list.matches ? t('rounds.verify.betsOk', { count: list.count }) : t('rounds.verify.betsBad')}
              />
            ) : null}
            {betList.error ? (
              <p className="form-message" role="alert">
                {t('rounds.verify.betsUnavailable')}
              </p>
            ) : null}
            <Check ok={v.digitsMatch} label={v.digitsMatch ? t('rounds.verify.digitsOk') : t('rounds.verify.digitsBad')} />
            {listPending ? null : (
              <p className={`verify__verdict verify__verdict--${verified ? 'ok' : 'bad'}`} role="status">
                {verified
                  ? beacon
                    ? t('rounds.verify.verifiedBeacon', { round: result.beaconRound })
                    : t('rounds.verify.verified')
                  : t('rounds.verify.notVerified')}
              </p>
            )}
          </div>
        ) : null}
        <p className="verify__recipe">{t(beacon ? 'rounds.verify.recipeBeacon' : 'rounds.verify.recipe')}</p>
      </section>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoundResult } from '../../api/rounds';
import { VerificationUnavailableError, verifyRound } from './fairness';

interface VerifyDialogProps {
  result: RoundResult;
  onClose: () => void;
}

function Check({ ok, label }: { ok: boolean; label: string }) {
  return (
    <p className={`verify__check verify__check--${ok ? 'ok' : 'bad'}`} data-ok={ok}>
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {label}
    </p>
  );
}

/**
 * Recomputes the round in this browser with Web Crypto: SHA-256 of the revealed seed against
 * the hash published before betting, and the digits from HMAC-SHA256(seed, issue).
 */
export function VerifyDialog({ result, onClose }: VerifyDialogProps) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const check = useQuery({
    queryKey: ['rounds', 'verify', result.windowId, result.issue, result.serverSeed],
    queryFn: () => verifyRound(result),
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
          <dt>{t('rounds.verify.published')}</dt>
          <dd className="mono">
            {result.digits.join(' + ')} = {result.sum}
          </dd>
        </dl>
        {check.isPending ? <p className="muted-note">{t('rounds.verify.computing')}</p> : null}
        {check.error ? (
          <p className="form-message" role="alert">
            {check.error instanceof VerificationUnavailableError ? t('rounds.verify.unavailable') : t('rounds.verify.failed')}
          </p>
        ) : null}
        {v ? (
          <div className="verify__computed" data-verified={v.verified}>
            <h3 className="verify__subtitle">{t('rounds.verify.inBrowser')}</h3>
            <dl className="verify__facts">
              <dt>{t('rounds.verify.computedHash')}</dt>
              <dd className="mono" data-field="computedHash">{v.computedHash}</dd>
              <dt>{t('rounds.verify.hmac')}</dt>
              <dd className="mono" data-field="hmac">{v.hmac}</dd>
              <dt>{t('rounds.verify.digits')}</dt>
              <dd className="mono" data-field="digits">
                {v.digits.join(' + ')} = {v.sum} · {v.outcome.map((o) => t(`rounds.content.${o}`)).join(' · ')}
              </dd>
            </dl>
            <Check ok={v.hashMatches} label={v.hashMatches ? t('rounds.verify.hashOk') : t('rounds.verify.hashBad')} />
            <Check ok={v.digitsMatch} label={v.digitsMatch ? t('rounds.verify.digitsOk') : t('rounds.verify.digitsBad')} />
            <p className={`verify__verdict verify__verdict--${v.verified ? 'ok' : 'bad'}`} role="status">
              {v.verified ? t('rounds.verify.verified') : t('rounds.verify.notVerified')}
            </p>
          </div>
        ) : null}
        <p className="verify__recipe">{t('rounds.verify.recipe')}</p>
      </section>
    </div>
  );
}

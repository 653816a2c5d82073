import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { protectionApi } from '../../api/protection';
import { Dialog } from '../../components/dialog/Dialog';
import { formatMoney } from '../../format';
import { playedParts } from './playSession';
import { protectionKeys } from './queries';

interface RealityCheckProps {
  /** The play session's start (unix ms). */
  since: number;
  /** When the check came due (unix ms): the time played shown. */
  at: number;
  onKeepPlaying: () => void;
  onStop: () => void;
}

/** The reality check: time played and net result since the session started, keep playing or stop. */
export function RealityCheck({ since, at, onKeepPlaying, onStop }: RealityCheckProps) {
  const { t } = useTranslation();
  const session = useQuery({
    queryKey: protectionKeys.session(since),
    queryFn: ({ signal }) => protectionApi.status(since, { signal }),
    staleTime: 0,
  });
  const { hours, minutes } = playedParts(at - since);
  return (
    <Dialog
      open
      title={t('protection.reality.dialogTitle')}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onStop}>
            {t('protection.reality.stop')}
          </button>
          <button type="button" className="button" onClick={onKeepPlaying}>
            {t('protection.reality.keep')}
          </button>
        </>
      }
    >
      <div data-testid="reality-check">
        <p>{t('protection.reality.played', { hours, minutes })}</p>
        {session.data ? (
          <p data-testid="reality-net" data-net={session.data.sinceNet}>
            {t('protection.reality.net', { amount: formatMoney(session.data.sinceNet, t) })}
          </p>
        ) : (
          <p className="muted-note">{t('common.loading')}</p>
        )}
      </div>
    </Dialog>
  );
}

import { useTranslation } from 'react-i18next';
import { useNow } from '../../../components/hooks/useNow';
import { formatDuration } from '../data/preview';

/** "You are muted (59 seconds left)", counting down each second; gone when the mute ends. */
export function MuteNotice({ until }: { until: number }) {
  const { t } = useTranslation();
  const now = useNow(1_000);
  const left = Math.ceil((until - now) / 1000);
  if (left <= 0) return null;
  return (
    <p className="conversation__notice" role="status" data-testid="conversation-notice">
      {t('chat.conversation.mutedFor', { time: formatDuration(left, t) })}
    </p>
  );
}

import { useTranslation } from 'react-i18next';
import { formatTimeAgo } from '../../../format/timeAgo';
import { usePresence } from '../data/presence';

/**
 * "Online" or "Last seen 5 minutes ago" for a user; nothing when there is nothing to say
 * (never seen, hidden by the user, or not someone whose presence the viewer may see).
 */
export function PresenceLine({ userID, className }: { userID: string; className: string }) {
  const { t } = useTranslation();
  const status = usePresence(userID);
  if (!status) return null;
  if (status.status === 1) {
    return (
      <p className={`${className} ${className}--online`} role="status" data-testid="presence">
        {t('chat.presence.online')}
      </p>
    );
  }
  if (status.lastSeen <= 0) return null;
  return (
    <p className={className} role="status" data-testid="presence">
      {t('chat.presence.lastSeen', { time: formatTimeAgo(status.lastSeen, t) })}
    </p>
  );
}

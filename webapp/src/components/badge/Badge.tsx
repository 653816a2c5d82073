import { useTranslation } from 'react-i18next';
import { badgeText } from '../../features/chat/data/ids';
import '../kit.css';

interface BadgeProps {
  count: number;
  /** A dot instead of a number (e.g. a muted conversation). */
  dot?: boolean;
}

/** Unread count: 99+ above 99, labelled for screen readers. */
export function Badge({ count, dot = false }: BadgeProps) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  const label = t('chat.unreadLabel', { count });
  if (dot) return <span className="chat-badge chat-badge--dot" role="img" aria-label={label} />;
  return (
    <span className="chat-badge" role="img" aria-label={label}>
      {badgeText(count)}
    </span>
  );
}

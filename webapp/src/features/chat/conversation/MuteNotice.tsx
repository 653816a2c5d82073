import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNow } from '../../../components/hooks/useNow';
import { formatMuteLeft } from '../data/preview';

/**
 * While the member is muted (until `until`, the member's muteEndTime in ms; 0 when not) or the
 * whole group is: says why above the message box, with the minutes left, and hands the reason
 * to the box so it is disabled instead of sending messages the server refuses. The mute and
 * unmute pushes update the member (and the group's status), so this follows them; a mute that
 * runs out on its own opens the box again at its end.
 */
export function MuteGate({ until, allMuted, children }: { until: number; allMuted: boolean; children: (blocked: string | null) => ReactNode }) {
  const { t } = useTranslation();
  // Ticks only while a mute is set: the minutes left count down and the end is noticed.
  const now = useNow(until > 0 ? 1_000 : 60_000);
  const left = until - now;
  let reason: string | null = null;
  if (left > 0) reason = t('chat.conversation.mutedFor', { time: formatMuteLeft(left, t) });
  else if (allMuted) reason = t('chat.errors.groupMuted');
  return (
    <>
      {reason ? (
        <p className="conversation__notice" role="status" data-testid="conversation-notice">
          {reason}
        </p>
      ) : null}
      {children(reason)}
    </>
  );
}

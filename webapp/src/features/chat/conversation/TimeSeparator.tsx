import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n';

const DAY = 86_400_000;

/** "14:05", "Yesterday 14:05" or a full date, between messages far apart. */
export function TimeSeparator({ time, now }: { time: number; now: number }) {
  const { t, i18n } = useTranslation();
  const date = new Date(time);
  const lang = currentLanguage(i18n);
  const clock = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  let label: string;
  if (time >= today.getTime()) label = clock;
  else if (time >= today.getTime() - DAY) label = t('chat.conversation.yesterday', { time: clock });
  else {
    const day = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
    label = `${day} ${clock}`;
  }
  return (
    <p className="msg-time" role="separator">
      {label}
    </p>
  );
}

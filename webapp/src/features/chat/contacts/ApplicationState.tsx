import { useTranslation } from 'react-i18next';
import { HandleResult } from '../../../api/socket/types';

/**
 * Where a friend or group application stands: added, refused, or still open — then the buttons
 * to answer it when it waits on me (`onAnswer`), or 'waiting' when it waits on the other side.
 */
export function ApplicationState({
  result,
  busy,
  onAnswer,
}: {
  result: number;
  busy: boolean;
  onAnswer?: (accept: boolean) => void;
}) {
  const { t } = useTranslation();
  if (result === HandleResult.accepted) return <span className="chat-status-text">{t('chat.newFriend.added')}</span>;
  if (result === HandleResult.refused) return <span className="chat-status-text">{t('chat.newFriend.refused')}</span>;
  if (!onAnswer) return <span className="chat-status-text">{t('chat.newFriend.waiting')}</span>;
  const answers = [
    { accept: false, className: 'chat-small-button chat-small-button--secondary', label: t('chat.newFriend.refuse') },
    { accept: true, className: 'chat-small-button', label: t('chat.newFriend.accept') },
  ];
  return answers.map(({ accept, className, label }) => (
    <button
      key={label}
      type="button"
      className={className}
      disabled={busy}
      onClick={() => {
        onAnswer(accept);
      }}
    >
      {label}
    </button>
  ));
}

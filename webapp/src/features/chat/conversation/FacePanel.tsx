import { useTranslation } from 'react-i18next';
import { FACES } from './content/faces';

/** The built-in stickers; tapping one sends it. */
export function FacePanel({ onPick }: { onPick: (index: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="composer-panel composer-panel--faces" role="group" aria-label={t('chat.composer.faces')}>
      {FACES.map((face, i) => (
        <button
          key={face}
          type="button"
          className="composer-face"
          onClick={() => {
            onPick(i);
          }}
          aria-label={t('chat.composer.sendFace', { face })}
        >
          {face}
        </button>
      ))}
    </div>
  );
}

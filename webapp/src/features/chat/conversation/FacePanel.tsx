import { useTranslation } from 'react-i18next';
import { FACES } from './content/faces';

/** The built-in emoji; tapping one puts it into the text being written. */
export function FacePanel({ onPick }: { onPick: (face: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="composer-panel composer-panel--faces" role="group" aria-label={t('chat.composer.faces')}>
      {FACES.map((face) => (
        <button
          key={face}
          type="button"
          className="composer-face"
          onClick={() => {
            onPick(face);
          }}
          aria-label={t('chat.composer.insertFace', { face })}
        >
          {face}
        </button>
      ))}
    </div>
  );
}

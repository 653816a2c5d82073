import { useTranslation } from 'react-i18next';
import type { FaceElem } from '../../../../api/socket/types';
import { faceOf } from './faces';

/** A sticker of the built-in set, drawn large. */
export function FaceContent({ elem }: { elem: FaceElem }) {
  const { t } = useTranslation();
  const face = faceOf(elem);
  return (
    <span className="msg-face" role="img" aria-label={t('chat.preview.face')}>
      {face}
    </span>
  );
}

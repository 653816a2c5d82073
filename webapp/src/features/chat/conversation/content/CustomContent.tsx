import { useTranslation } from 'react-i18next';
import type { CustomElem } from '../../../../api/socket/types';

/** A custom message: its description, else a generic label (its data is for programs). */
export function CustomContent({ elem }: { elem: CustomElem }) {
  const { t } = useTranslation();
  return (
    <p className="msg-text msg-custom">
      <span className="msg-custom__label">{t('chat.preview.custom')}</span>
      {elem.description ? <span>{elem.description}</span> : null}
    </p>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CardElem } from '../../../../api/socket/types';
import { Avatar } from '../../../../components/avatar/Avatar';
import { userInfoPath } from '../../paths';

/** A business card; tapping opens the user's profile. */
export function CardContent({ elem }: { elem: CardElem }) {
  const { t } = useTranslation();
  return (
    <Link className="msg-card" to={userInfoPath(elem.userID)}>
      <span className="msg-card__top">
        <Avatar decorative name={elem.nickname} src={elem.faceURL} size={40} />
        <span className="msg-card__name">{elem.nickname}</span>
      </span>
      <span className="msg-card__label">{t('chat.message.card')}</span>
    </Link>
  );
}

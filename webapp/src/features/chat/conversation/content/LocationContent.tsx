import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LocationElem } from '../../../../api/socket/types';
import { LocationIcon } from '../../../../components/icons/Icons';
import { openLocationPath } from '../../paths';

/** A place; tapping opens /open-location. */
export function LocationContent({ elem }: { elem: LocationElem }) {
  const { t } = useTranslation();
  return (
    <Link className="msg-location" to={openLocationPath(elem.latitude, elem.longitude, elem.description)}>
      <span className="msg-location__icon">
        <LocationIcon />
      </span>
      <span className="msg-location__main">
        <span className="msg-location__name">{elem.description || t('chat.location.unnamed')}</span>
        <span className="msg-location__coords">
          {elem.latitude.toFixed(5)}, {elem.longitude.toFixed(5)}
        </span>
      </span>
    </Link>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '../../../components/badge/Badge';
import { ContactsIcon, SearchIcon } from '../../../components/icons/Icons';
import { usePendingFriendRequests, usePendingGroupRequests } from '../data/hooks';
import { CHAT_PATHS } from '../paths';

/** Under the header: the search field (opens search) and contacts, dotted when requests wait. */
export function ListToolbar() {
  const { t } = useTranslation();
  const pending = usePendingFriendRequests() + usePendingGroupRequests();
  return (
    <div className="conversation-toolbar">
      <Link className="conversation-toolbar__search" to={CHAT_PATHS.search}>
        <SearchIcon />
        <span>{t('chat.search.placeholder')}</span>
      </Link>
      <Link
        className="icon-button chat-icon-button conversation-toolbar__contacts"
        to={CHAT_PATHS.contacts}
        aria-label={pending > 0 ? t('chat.list.contactsWithRequests', { count: pending }) : t('chat.contacts.title')}
      >
        <ContactsIcon />
        {pending > 0 ? (
          <span className="conversation-toolbar__badge" aria-hidden="true">
            <Badge count={pending} dot />
          </span>
        ) : null}
      </Link>
    </div>
  );
}

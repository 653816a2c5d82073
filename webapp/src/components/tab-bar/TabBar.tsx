import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HOME_PATH, TAB_PATHS } from '../../navigation/paths';
import { Badge } from '../badge/Badge';
import { useUnreadTotal } from '../../features/chat/data/hooks';
import { ChatIcon, FindIcon, MineIcon } from './TabIcons';
import './TabBar.css';

const TABS = [
  { id: 'chat', to: HOME_PATH, matches: [HOME_PATH, TAB_PATHS.chat], Icon: ChatIcon },
  // Same city and live highlights open from discover's tiles: discover stays lit there.
  { id: 'find', to: TAB_PATHS.find, matches: [TAB_PATHS.find, TAB_PATHS.city, TAB_PATHS.love], Icon: FindIcon },
  { id: 'mine', to: TAB_PATHS.mine, matches: [TAB_PATHS.mine], Icon: MineIcon },
] as const;

/** The bottom tab bar: chat, find, mine, 50 px, #315aff / #a1a1a1. */
export function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The chat tab carries the total unread count.
  const chatUnread = useUnreadTotal();
  return (
    <nav className="tab-bar" aria-label={t('tabs.navigation')}>
      <ul className="tab-bar__list">
        {TABS.map(({ id, to, matches, Icon }) => {
          const active = (matches as readonly string[]).includes(pathname.replace(/(.)\/+$/, '$1'));
          const badge = id === 'chat' ? chatUnread : 0;
          const label = badge > 0 ? t('chat.tabLabel', { tab: t(`tabs.${id}`), count: badge }) : t(`tabs.${id}`);
          return (
            <li key={id} className="tab-bar__item">
              <Link
                to={to}
                className={active ? 'tab-bar__link tab-bar__link--active' : 'tab-bar__link'}
                aria-current={active ? 'page' : undefined}
                aria-label={label}
                data-tab={id}
              >
                <span className="tab-bar__icon">
                  <Icon active={active} />
                  {badge > 0 ? (
                    <span className="tab-bar__badge" aria-hidden="true" data-testid={`tab-badge-${id}`}>
                      <Badge count={badge} />
                    </span>
                  ) : null}
                </span>
                <span className="tab-bar__label" aria-hidden="true">
                  {t(`tabs.${id}`)}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

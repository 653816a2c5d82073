import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { ActionSheet, type SheetAction } from '../../../components/action-sheet/ActionSheet';
import { PlusIcon } from '../../../components/icons/Icons';
import { useMe } from '../data/hooks';
import { CHAT_PATHS, createGroupPath } from '../paths';
import { ConversationList } from './ConversationList';
import { SignedOutPrompt } from './SignedOutPrompt';
import './ConversationListPage.css';

/** The chat tab (`/`): conversations, pinned first, then by latest activity. */
export function ConversationListPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  const addMenu: SheetAction[] = [
    { label: t('chat.list.addFriend'), onSelect: () => void navigate(CHAT_PATHS.addFriend) },
    { label: t('chat.list.createGroup'), onSelect: () => void navigate(createGroupPath(2)) },
    { label: t('chat.list.createChannel'), onSelect: () => void navigate(createGroupPath(3)) },
    { label: t('chat.list.scan'), onSelect: () => void navigate(`${CHAT_PATHS.addFriend}?scan=1`) },
  ];

  return (
    <main className="conversation-page">
      <PageHeader
        title={t('pages.chat.title')}
        action={
          me ? (
            <button
              type="button"
              className="icon-button chat-icon-button"
              aria-label={t('chat.list.addMenu')}
              onClick={() => {
                setMenuOpen(true);
              }}
            >
              <PlusIcon size={24} />
            </button>
          ) : null
        }
      />
      {me ? <ConversationList me={me} /> : <SignedOutPrompt />}
      {menuOpen ? (
        <ActionSheet
          actions={addMenu}
          onClose={() => {
            setMenuOpen(false);
          }}
        />
      ) : null}
    </main>
  );
}

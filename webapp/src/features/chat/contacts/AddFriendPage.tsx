import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { getUserByNick, type FoundUser } from '../../../api/chat';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { QrCode } from '../../../components/qr-code/QrCode';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { ChevronIcon, ScanIcon } from '../../../components/icons/Icons';
import { ListRow } from '../../../components/list-row/ListRow';
import { chatErrorText } from '../data/errors';
import { useMe, useSelf } from '../data/hooks';
import { friendLinkOf, userInfoPath } from '../paths';
import { appPathOf } from './qr';
import { QrScanner } from './QrScanner';
import { ChatSearchForm } from '../ChatSearchForm';
import './AddFriendPage.css';

/** /pages/chat/add-friend: search by nickname, scan a QR code, or share my own link. */
export function AddFriendPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const { data: self } = useSelf();
  const [params, setParams] = useSearchParams();
  const scanning = params.get('scan') === '1';
  const [nickname, setNickname] = useState('');
  const [missing, setMissing] = useState(false);
  const search = useMutation({ mutationFn: (nick: string) => getUserByNick(nick) });
  const link = me ? friendLinkOf(me) : '';

  const onSearch = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const nick = nickname.trim();
    setMissing(!nick);
    if (nick && !search.isPending) search.mutate(nick);
  };

  const setScanning = (on: boolean): void => {
    setParams(on ? { scan: '1' } : {}, { replace: true });
  };

  const onScanned = (text: string): void => {
    const path = appPathOf(text);
    setScanning(false);
    if (path) void navigate(path);
    else showToast(t('chat.scan.unknown'));
  };

  const copy = (): void => {
    navigator.clipboard.writeText(link).then(
      () => {
        showToast(t('chat.message.copied'));
      },
      () => {
        showToast(t('chat.message.copyFailed'));
      },
    );
  };

  const share = (): void => {
    if (typeof navigator.share === 'function') {
      navigator.share({ title: t('chat.addFriend.shareTitle'), url: link }).catch(() => undefined);
    } else {
      copy();
    }
  };

  const results: FoundUser[] = search.data ?? [];
  return (
    <main className="chat-page">
      <PageHeader title={t('chat.addFriend.title')} back />
      <div className="chat-page__scroll">
        <ChatSearchForm
          name="nickname"
          value={nickname}
          maxLength={10}
          placeholder={t('chat.addFriend.searchPlaceholder')}
          invalid={missing}
          busy={search.isPending}
          onChange={setNickname}
          onSubmit={onSearch}
        />
        {missing ? <p className="chat-form-error" role="alert">{t('chat.addFriend.nicknameRequired')}</p> : null}
        {search.error ? <p className="chat-form-error" role="alert">{chatErrorText(search.error, t)}</p> : null}
        {search.isSuccess && results.length === 0 ? <EmptyState title={t('chat.search.empty')} /> : null}
        {results.length > 0 ? (
          <ul className="add-friend__results" aria-label={t('chat.addFriend.results')}>
            {results.map((u) => (
              <li key={u.userID}>
                <ListRow
                  to={userInfoPath(u.userID)}
                  left={<Avatar decorative name={u.nickname} src={u.faceURL} size={44} />}
                  title={u.nickname}
                  subtitle={t('chat.userInfo.id', { id: u.userID })}
                  right={<ChevronIcon />}
                />
              </li>
            ))}
          </ul>
        ) : null}
        <h2 className="chat-section-title">{t('chat.addFriend.otherWays')}</h2>
        <ListRow
          onClick={() => {
            setScanning(true);
          }}
          left={
            <span className="chat-entry-icon" aria-hidden="true">
              <ScanIcon />
            </span>
          }
          title={t('chat.scan.title')}
          subtitle={t('chat.scan.subtitle')}
        />
        {me ? (
          <section className="add-friend__card" aria-label={t('chat.addFriend.myCode')}>
            <h2 className="chat-section-title">{t('chat.addFriend.myCode')}</h2>
            <div className="add-friend__qr">
              <QrCode value={link} label={t('chat.addFriend.qrLabel', { name: self?.nickname ?? '' })} />
              <p className="chat-muted-text">{t('chat.addFriend.qrHint')}</p>
              <p className="add-friend__link" data-testid="friend-link">
                {link}
              </p>
              <div className="add-friend__buttons">
                <button type="button" className="button button--secondary" onClick={copy}>
                  {t('chat.addFriend.copyLink')}
                </button>
                <button type="button" className="button" onClick={share}>
                  {t('chat.addFriend.shareLink')}
                </button>
              </div>
            </div>
          </section>
        ) : null}
      </div>
      {scanning ? (
        <QrScanner
          onResult={onScanned}
          onClose={() => {
            setScanning(false);
          }}
        />
      ) : null}
    </main>
  );
}

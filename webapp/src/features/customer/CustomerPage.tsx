import '../../components/ui/ui.css';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseAbout, TAB_PATHS } from '../../navigation/paths';
import { formatMoney } from '../../format';
import { useSearchParam } from '../../navigation/useSearchParam';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
import { InlineError, LoadingNote } from '../../components/status/SectionState';
import { useSession } from '../../state/session';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { useCustomerChat } from './useCustomerChat';
import './customer.css';
import { assetUrl } from '../../api/assets';
import { useAttachmentUrl } from '../../components/hooks/useAttachmentUrl';
import { countEvent } from '../launch/beacon';

/**
 * Customer service (/pages/customer/customer), open without login: a live chat with an agent.
 * Older messages load page by page when the list is scrolled up (MessageList).
 */
export function CustomerPage() {
  const { t } = useTranslation();
  const draft = useSearchParam('draft');
  // What the player came to ask about travels with their first message, beside the text.
  const aboutParam = useSearchParam('about');
  const [about, setAbout] = useState(() => parseAbout(aboutParam));
  const chat = useCustomerChat();
  const { token } = useSession();
  const [image, setImage] = useState<string | null>(null);
  const shownImage = useAttachmentUrl(image);
  const [sendCount, setSendCount] = useState(0);
  const { history } = chat;
  useEffect(() => {
    countEvent('customer');
  }, []);

  const header = <PageHeader title={chat.serviceName || t('customer.title')} back fallback={TAB_PATHS.find} />;

  if (chat.init.isError) {
    return (
      <main className="page customer-page">
        {header}
        <EmptyState title={t('customer.loadFailed')} text={chat.init.error.message}>
          <button type="button" className="button" onClick={() => void chat.init.refetch()}>
            {t('discover.retry')}
          </button>
        </EmptyState>
      </main>
    );
  }

  const welcome = chat.init.data?.welcome;
  return (
    <main className="customer-page">
      {header}
      {chat.socketState !== 'open' && chat.init.isSuccess ? (
        <p className="customer-page__banner" role="status">
          {t('customer.connecting')}
        </p>
      ) : null}
      {chat.init.isPending || history.isPending ? <LoadingNote /> : null}
      {history.isError ? <InlineError message={history.error.message} onRetry={() => void history.refetch()} /> : null}
      <MessageList
        welcome={welcome ?? null}
        messages={chat.messages}
        outgoing={chat.outgoing}
        hasOlder={history.hasNextPage}
        loadingOlder={history.isFetchingNextPage}
        loadOlder={() => void history.fetchNextPage()}
        onRetry={chat.retry}
        onOpenImage={setImage}
        sendCount={sendCount}
      />
      {about ? (
        <p className="customer-page__about" data-testid="customer-about">
          {about.kind === 'recharge'
            ? t('customer.about.recharge', { amount: formatMoney(about.amount, t), currency: about.currency })
            : t(`customer.about.${about.kind}`)}
        </p>
      ) : null}
      <Composer
        initial={draft}
        disabled={!chat.init.isSuccess}
        onSend={(content) => {
          chat.send(content, about ?? undefined);
          setAbout(null);
          setSendCount((n) => n + 1);
        }}
        {...(token
          ? {
              onPickImage: (file: File) => {
                chat.sendImage(file);
                setSendCount((n) => n + 1);
              },
            }
          : {})}
      />
      {image ? (
        <div
          className="image-viewer"
          role="dialog"
          aria-modal="true"
          aria-label={t('customer.image')}
          onClick={() => {
            setImage(null);
          }}
        >
          <img className="image-viewer__image" src={shownImage ? assetUrl(shownImage) : undefined} alt={t('customer.image')} />
          <button type="button" className="icon-button image-viewer__close" aria-label={t('discover.close')}>
            ×
          </button>
        </div>
      ) : null}
    </main>
  );
}

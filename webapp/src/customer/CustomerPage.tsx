import '../components/ui/ui.css';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TAB_PATHS } from '../app/paths';
import { EmptyState } from '../components/empty-state/EmptyState';
import { PageHeader } from '../components/page-header/PageHeader';
import { useSession } from '../state/session';
import { Composer } from './Composer';
import { MessageBubble } from './MessageBubble';
import { useCustomerChat } from './useCustomerChat';
import './customer.css';

/**
 * Customer service (/pages/customer/customer), open without login: a live chat with an agent.
 * Older messages load when the list is scrolled to the top, keeping what was on screen in place.
 */
export function CustomerPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const draft = params.get('draft') ?? '';
  const chat = useCustomerChat();
  const { token } = useSession();
  const [image, setImage] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const topSentinel = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const stickToBottom = useRef(true);
  const { history } = chat;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const count = chat.messages.length + chat.outgoing.length;

  // Loading older messages: remember the scroll height so the view does not jump.
  useEffect(() => {
    const el = topSentinel.current;
    const root = scroller.current;
    if (!el || !root || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage && !stickToBottom.current) {
          anchor.current = { height: root.scrollHeight, top: root.scrollTop };
          void fetchNextPage();
        }
      },
      { root },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, count]);

  useLayoutEffect(() => {
    const root = scroller.current;
    if (!root) return;
    if (anchor.current) {
      root.scrollTop = anchor.current.top + (root.scrollHeight - anchor.current.height);
      anchor.current = null;
    } else if (stickToBottom.current) {
      root.scrollTop = root.scrollHeight;
    }
  }, [count, history.data?.pages.length]);

  const keepNewestInView = (): void => {
    const root = scroller.current;
    if (root && stickToBottom.current) root.scrollTop = root.scrollHeight;
  };

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
      <div
        ref={scroller}
        className="customer-page__messages"
        onScroll={(event) => {
          const el = event.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
      >
        <div ref={topSentinel} className="customer-page__top" aria-hidden="true" />
        {isFetchingNextPage ? <p className="muted-note">{t('common.loading')}</p> : null}
        {chat.init.isPending || history.isPending ? <p className="muted-note">{t('common.loading')}</p> : null}
        {history.isError ? (
          <div className="inline-error" role="alert">
            <p>{history.error.message}</p>
            <button type="button" className="button button--secondary" onClick={() => void history.refetch()}>
              {t('discover.retry')}
            </button>
          </div>
        ) : null}
        <ol className="customer-page__list" aria-label={t('customer.messages')} aria-live="polite">
          {welcome && !hasNextPage ? (
            <li className="bubble-row" data-from="welcome">
              <div className="bubble bubble--welcome">
                <p className="bubble__text">{welcome}</p>
              </div>
            </li>
          ) : null}
          {chat.messages.map((message) => (
            <MessageBubble key={message._id} message={message} onOpenImage={setImage} onMediaLoad={keepNewestInView} />
          ))}
          {chat.outgoing.map((outgoing) => (
            <MessageBubble key={outgoing.clientMsgId} outgoing={outgoing} onRetry={chat.retry} onMediaLoad={keepNewestInView} />
          ))}
        </ol>
      </div>
      <Composer
        initial={draft}
        disabled={!chat.init.isSuccess}
        onSend={(content) => {
          stickToBottom.current = true;
          chat.send(content);
        }}
        {...(token
          ? {
              onPickImage: (file: File) => {
                stickToBottom.current = true;
                chat.sendImage(file);
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
          <img className="image-viewer__image" src={image} alt={t('customer.image')} />
          <button type="button" className="image-viewer__close" aria-label={t('discover.close')}>
            ×
          </button>
        </div>
      ) : null}
    </main>
  );
}

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { noticesApi, type Notice } from '../../api/notices';
import { MY_PATHS, TAB_PATHS } from '../../navigation/paths';
import { PageLoading } from '../../components/status/PageLoading';
import { InfiniteList, nextPageParam } from '../../components/infinite-list/InfiniteList';
import { PageHeader } from '../../components/page-header/PageHeader';
import { ErrorState } from '../../components/status/ErrorState';
import { formatDateTime, formatTimeAgo } from '../../format';
import {
  markAllReadLocally,
  markReadLocally,
  noticeDetailKey,
  noticeListKey,
  restore,
  setUnreadCount,
  snapshot,
} from './noticeCache';
import { showToast } from '../../state/toast';
import styles from './NoticePage.module.css';

const PAGE_SIZE = 20;

/** Notices: the list with read-all, or one notice (`?id=`), which opening marks read. */
export function NoticePage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return id ? <NoticeDetail id={id} /> : <NoticeList />;
}

function NoticeList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: noticeListKey,
    queryFn: ({ pageParam, signal }) => noticesApi.list(pageParam, PAGE_SIZE, signal),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
    refetchOnMount: 'always',
  });
  const unread = query.data?.pages[0]?.unread ?? 0;

  const readAll = useMutation({
    mutationFn: () => noticesApi.readAll(),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: noticeListKey });
      const saved = snapshot(queryClient);
      markAllReadLocally(queryClient);
      return saved;
    },
    onError: (error, _vars, saved) => {
      if (saved) restore(queryClient, saved);
      showToast(error.message);
    },
    onSuccess: (data) => {
      setUnreadCount(queryClient, data.unread);
      showToast(t('notices.allRead'));
    },
  });

  return (
    <main className="page page--fill">
      <PageHeader
        title={t('notices.title')}
        back
        fallback={TAB_PATHS.mine}
        action={
          <button
            type="button"
            className="page-header__action-button"
            disabled={unread === 0 || readAll.isPending}
            onClick={() => {
              readAll.mutate();
            }}
          >
            {t('notices.readAll')}
          </button>
        }
      />
      <InfiniteList
        query={query}
        label={t('notices.listLabel')}
        estimateSize={84}
        getKey={(notice: Notice) => notice.id}
        emptyTitle={t('notices.emptyTitle')}
        emptyText={t('notices.emptyText')}
        renderItem={(notice: Notice) => <NoticeRow notice={notice} />}
      />
    </main>
  );
}

function NoticeRow({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const unread = notice.read !== 1;
  return (
    <Link className={styles['notice-row']} to={`${MY_PATHS.notice}?id=${encodeURIComponent(notice.id)}`} data-unread={unread || undefined}>
      <span className={styles['notice-row__head']}>
        {unread ? <span className={styles['notice-row__dot']} role="img" aria-label={t('notices.unread')} /> : null}
        <span className={styles['notice-row__title']}>{notice.title}</span>
        <time className={styles['notice-row__time']} dateTime={new Date(notice.createdAt).toISOString()}>
          {formatTimeAgo(notice.createdAt, t)}
        </time>
      </span>
      {notice.content ? <span className={styles['notice-row__snippet']}>{notice.content}</span> : null}
    </Link>
  );
}

function NoticeDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cached = queryClient
    .getQueryData<{ pages: { list: Notice[] }[] }>(noticeListKey)
    ?.pages.flatMap((p) => p.list)
    .find((n) => n.id === id);
  const query = useQuery({
    queryKey: noticeDetailKey(id),
    queryFn: async () => {
      const saved = snapshot(queryClient);
      markReadLocally(queryClient, id);
      try {
        const answer = await noticesApi.readOne(id);
        setUnreadCount(queryClient, answer.unread);
        return answer.notice;
      } catch (error) {
        restore(queryClient, saved);
        throw error;
      }
    },
    placeholderData: cached,
  });

  let body;
  if (query.isPending) body = <PageLoading />;
  else if (query.isError && !query.data) {
    body = (
      <ErrorState
        message={query.error.message}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  } else {
    const notice = query.data;
    body = (
      <article className={styles['notice-detail']}>
        <h2 className={styles['notice-detail__title']}>{notice.title}</h2>
        <time className={styles['notice-detail__time']} dateTime={new Date(notice.createdAt).toISOString()}>
          {formatDateTime(notice.createdAt, t)}
        </time>
        <div className={styles['notice-detail__content']}>{notice.content}</div>
      </article>
    );
  }
  return (
    <main className="page">
      <PageHeader title={t('notices.detailTitle')} back fallback={MY_PATHS.notice} />
      {body}
    </main>
  );
}

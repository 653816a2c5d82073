import '../../components/ui/ui.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VideoListState } from './VideoListState';
import { ApiError } from '../../api/client';
import { contentApi, VIDEO_LIMIT_CODE, type Video, type VideoAllowance } from '../../api/content';
import { TAB_PATHS } from '../../navigation/paths';
import { PageHeader } from '../../components/page-header/PageHeader';
import { PullRefresh } from '../../components/pull-refresh/PullRefresh';
import { showToast } from '../../state/toast';
import { InviteCodeGate } from './InviteCodeGate';
import { useAccountPushes, useFindVideos, useInviteRequired, useVideoAllowance, videoKeys } from './queries';
import { VideoLimitNotice } from './VideoLimitNotice';
import { VideoPlayer } from './VideoPlayer';
import './videos.css';
import { assetUrl } from '../../api/assets';
import { countEvent } from '../launch/beacon';

function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Discover videos (/pages/find/watch-video): each view is counted; non-activated accounts stop at the daily cap. */
export function WatchVideoPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  useAccountPushes();
  const invite = useInviteRequired();
  const videos = useFindVideos();
  const allowance = useVideoAllowance();
  const [playing, setPlaying] = useState<Video | null>(null);
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const sentinel = useRef<HTMLLIElement>(null);
  const closePlayer = useCallback(() => {
    setPlaying(null);
  }, []);

  const open = useMutation({
    mutationFn: (video: Video) => contentApi.checkVideoCount(video.id, { quiet: true }),
    onSuccess: (answer: VideoAllowance) => {
      client.setQueryData(videoKeys.allowance, { ...answer, video: null });
      if (answer.video?.url) {
        setLimitMessage(null);
        setPlaying(answer.video);
        countEvent('video');
      }
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === VIDEO_LIMIT_CODE) {
        setLimitMessage(error.message);
        void client.invalidateQueries({ queryKey: videoKeys.allowance });
      } else {
        showToast(error.message);
      }
    },
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = videos;
  const loadedPages = videos.data?.pages.length ?? 0;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, loadedPages]);

  const header = <PageHeader title={t('videos.watchTitle')} back fallback={TAB_PATHS.find} />;

  if (invite.pending) {
    return (
      <main className="page">
        {header}
        <p className="muted-note">{t('common.loading')}</p>
      </main>
    );
  }
  if (invite.required) {
    return (
      <main className="page">
        {header}
        <InviteCodeGate />
      </main>
    );
  }

  const list = videos.data?.pages.flatMap((p) => p.list) ?? [];
  const a = allowance.data;
  const capped = a !== undefined && !a.unlimited && a.remaining <= 0;

  return (
    <main className="page watch-video">
      {header}
      <PullRefresh
        onRefresh={() =>
          Promise.all([
            client.invalidateQueries({ queryKey: videoKeys.find }),
            client.invalidateQueries({ queryKey: videoKeys.allowance }),
          ])
        }
      >
        {a ? (
          <p className="video-allowance" data-remaining={a.unlimited ? 'unlimited' : a.remaining}>
            {a.unlimited
              ? t('discover.video.unlimited')
              : t('discover.video.remaining', { remaining: a.remaining, limit: a.limit })}
          </p>
        ) : null}
        {limitMessage !== null || capped ? <VideoLimitNotice {...(limitMessage ? { message: limitMessage } : {})} /> : null}

        <VideoListState videos={videos} count={list.length} emptyText={t('videos.emptyText')}>
          <ul className="video-grid">
            {list.map((video) => (
              <li key={video.id} className="video-grid__item">
                <button
                  type="button"
                  className="video-tile"
                  data-video={video.id}
                  disabled={open.isPending}
                  aria-busy={open.isPending && open.variables.id === video.id}
                  onClick={() => {
                    open.mutate(video);
                  }}
                >
                  <img className="video-tile__cover" src={assetUrl(video.cover)} alt="" loading="lazy" />
                  <span className="video-tile__duration">{formatDuration(video.duration)}</span>
                  <span className="video-tile__title">{video.title}</span>
                  <span className="video-tile__play" aria-hidden="true">
                    ▶
                  </span>
                </button>
              </li>
            ))}
            <li ref={sentinel} className="video-grid__sentinel" aria-hidden="true" />
          </ul>
        </VideoListState>
        {isFetchingNextPage ? <p className="muted-note">{t('common.loading')}</p> : null}
      </PullRefresh>
      {playing?.url ? (
        <VideoPlayer
          url={playing.url}
          title={playing.title}
          poster={playing.cover}
          onClose={closePlayer}
        />
      ) : null}
    </main>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VideoListState } from './VideoListState';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Video } from '../../api/content';
import { customerPath, FIND_PATHS, TAB_PATHS } from '../../navigation/paths';
import { useNextPageNearEnd } from '../../components/infinite-list/useNextPageNearEnd';
import { showToast } from '../../state/toast';
import { useHighlightVideos } from './queries';
import { ChatBubbleIcon, ForwardIcon, SaveIcon, SoundIcon } from './VideoIcons';
import { shareImagePath } from './share';
import './videos.css';
import { assetUrl } from '../../api/assets';

function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/**
 * Live highlights (/pages/love/video): full screen, one video per screen, swipe up and down.
 * The visible video plays (muted until the user turns the sound on); the side buttons open
 * the conversation with the video's account, forward it and save it.
 */
export function HighlightsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const startId = params.get('id');
  const videos = useHighlightVideos();
  const [muted, setMuted] = useState(true);
  const [active, setActive] = useState(0);
  const feed = useRef<HTMLDivElement>(null);
  const scrolledToStart = useRef(false);
  const list = useMemo(() => videos.data?.pages.flatMap((p) => p.list) ?? [], [videos.data]);

  // Which slide fills the screen: play it, pause the others.
  useEffect(() => {
    const root = feed.current;
    if (!root || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const index = Number((entry.target as HTMLElement).dataset.index);
          const el = entry.target.querySelector('video');
          if (entry.isIntersecting && entry.intersectionRatio >= 0.6) {
            setActive(index);
            Promise.resolve(el?.play()).catch(() => undefined);
          } else {
            el?.pause();
          }
        }
      },
      { root, threshold: [0, 0.6, 1] },
    );
    for (const slide of root.querySelectorAll('[data-index]')) observer.observe(slide);
    return () => {
      observer.disconnect();
    };
  }, [list.length]);

  // Opened on one video (?id=): start there.
  useEffect(() => {
    if (scrolledToStart.current || !startId || list.length === 0) return;
    const index = list.findIndex((v) => v.id === startId);
    scrolledToStart.current = true;
    if (index > 0) feed.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'start' });
  }, [startId, list]);

  useNextPageNearEnd(videos, active, list.length, 2);

  const goBack = (): void => {
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(TAB_PATHS.find, { replace: true });
  };

  const forward = async (video: Video): Promise<void> => {
    const url = absoluteUrl(`${FIND_PATHS.loveVideo}?id=${encodeURIComponent(video.id)}`);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: video.title, url });
        return;
      } catch (error) {
        // The user closed the share sheet: nothing to do.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    void navigate(shareImagePath({ title: video.title, image: video.cover, url, text: t('videos.shareText') }));
  };

  return (
    <main className="highlights" aria-label={t('pages.love.title')}>
      <div className="highlights__bar">
        <button type="button" className="highlights__icon" onClick={goBack} aria-label={t('common.back')}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path d="M15 5 8 12l7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <h1 className="highlights__title">{t('pages.love.title')}</h1>
        <button
          type="button"
          className="highlights__icon"
          onClick={() => {
            setMuted((m) => !m);
          }}
          aria-pressed={!muted}
          aria-label={muted ? t('videos.soundOn') : t('videos.soundOff')}
        >
          <SoundIcon muted={muted} />
        </button>
      </div>
      <VideoListState videos={videos} count={list.length} emptyText={t('pages.love.emptyText')} loadingClassName="highlights__note">
        <div ref={feed} className="highlights__feed">
          {list.map((video, index) => {
            return (
              <section key={video.id} className="highlights__slide" data-index={index} data-video={video.id} aria-label={video.title}>
                <video
                  className="highlights__video"
                  src={video.url ? assetUrl(video.url) : undefined}
                  poster={assetUrl(video.cover)}
                  muted={muted}
                  loop
                  playsInline
                  preload={Math.abs(index - active) <= 1 ? 'auto' : 'none'}
                />
                <div className="highlights__caption">
                  <p className="highlights__caption-title">{video.title}</p>
                </div>
                <div className="highlights__actions">
                  {/* Asking about a video reaches the customer-service queue, with the video beside the message. */}
                  <Link
                    className="highlights__action"
                    to={customerPath(t('videos.chatDraft', { title: video.title }), { kind: 'video', id: video.id })}
                  >
                    <ChatBubbleIcon />
                    <span>{t('videos.chat')}</span>
                  </Link>
                  <button
                    type="button"
                    className="highlights__action"
                    onClick={() => {
                      void forward(video);
                    }}
                  >
                    <ForwardIcon />
                    <span>{t('videos.forward')}</span>
                  </button>
                  {video.url ? (
                    <a
                      className="highlights__action"
                      href={assetUrl(video.url)}
                      download
                      onClick={() => {
                        showToast(t('videos.saving'));
                      }}
                    >
                      <SaveIcon />
                      <span>{t('videos.save')}</span>
                    </a>
                  ) : null}
                </div>
              </section>
            );
          })}
        </div>
      </VideoListState>
    </main>
  );
}

import '../../components/ui/ui.css';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VideoListState } from './VideoListState';
import { Link } from 'react-router';
import { FIND_PATHS, TAB_PATHS } from '../../navigation/paths';
import { PageHeader } from '../../components/page-header/PageHeader';
import { PullRefresh } from '../../components/pull-refresh/PullRefresh';
import { useHighlightVideos, videoKeys } from './queries';
import './videos.css';
import { assetUrl } from '../../api/assets';

/** The love tab (/pages/tabBar/love): the live-highlights videos; each opens the full-screen feed. */
export function LovePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const videos = useHighlightVideos();
  const list = videos.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <main>
      <PageHeader title={t('pages.love.title')} back fallback={TAB_PATHS.find} />
      <PullRefresh onRefresh={() => client.invalidateQueries({ queryKey: videoKeys.highlights })}>
        <VideoListState videos={videos} count={list.length} emptyText={t('pages.love.emptyText')}>
          <ul className="video-grid">
            {list.map((video) => (
              <li key={video.id} className="video-grid__item">
                <Link className="video-tile" to={`${FIND_PATHS.loveVideo}?id=${encodeURIComponent(video.id)}`}>
                  <img className="video-tile__cover" src={assetUrl(video.cover)} alt="" loading="lazy" />
                  <span className="video-tile__title">{video.title}</span>
                  <span className="video-tile__play" aria-hidden="true">
                    ▶
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </VideoListState>
        {videos.hasNextPage ? (
          <p className="muted-note">
            <button type="button" className="button button--secondary" onClick={() => void videos.fetchNextPage()} disabled={videos.isFetchingNextPage}>
              {t('discover.loadMore')}
            </button>
          </p>
        ) : null}
      </PullRefresh>
    </main>
  );
}

import { useTranslation } from 'react-i18next';
import type { VideoElem } from '../../../../api/socket/types';
import { useAttachmentUrl } from '../../../../components/hooks/useAttachmentUrl';
import { useMediaSource } from '../../../../components/hooks/useMediaSource';
import { formatClock } from '../media';

const MAX = 220;

/** The video plays inline with the browser's controls; the poster is its first frame. */
export function VideoContent({ elem }: { elem: VideoElem }) {
  const { t } = useTranslation();
  const src = useAttachmentUrl(elem.videoUrl);
  // A renewed link (they live 5 to 10 minutes) must not restart the video.
  const video = useMediaSource(src);
  const poster = useAttachmentUrl(elem.snapshotUrl || undefined);
  const w = elem.snapshotWidth;
  const h = elem.snapshotHeight;
  const scale = w > 0 && h > 0 ? Math.min(1, MAX / Math.max(w, h)) : 1;
  return (
    <figure className="msg-video">
      <video
        ref={video}
        poster={poster}
        controls
        playsInline
        preload="none"
        width={w > 0 ? Math.round(w * scale) : MAX}
        height={h > 0 ? Math.round(h * scale) : Math.round((MAX * 9) / 16)}
        aria-label={t('chat.preview.video')}
      />
      {elem.duration > 0 ? <figcaption className="msg-video__duration">{formatClock(elem.duration)}</figcaption> : null}
    </figure>
  );
}

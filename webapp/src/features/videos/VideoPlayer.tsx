import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assetUrl } from '../../api/assets';

interface VideoPlayerProps {
  url: string;
  title: string;
  poster?: string;
  onClose: () => void;
}

/** A full-screen player over the page; Escape or the close button returns to the list. */
export function VideoPlayer({ url, title, poster, onClose }: VideoPlayerProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    // Start playing; a browser that refuses autoplay leaves the controls to the user.
    // (Older engines answer play() with nothing rather than a promise.)
    Promise.resolve(video.current?.play()).catch(() => undefined);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  return (
    <div className="video-player" role="dialog" aria-modal="true" aria-label={title}>
      <div className="video-player__bar">
        <button ref={closeButton} type="button" className="icon-button video-player__close" onClick={onClose} aria-label={t('discover.close')}>
          ×
        </button>
        <span className="video-player__title">{title}</span>
      </div>
      <video
        ref={video}
        className="video-player__video"
        src={assetUrl(url)}
        poster={poster ? assetUrl(poster) : undefined}
        controls
        playsInline
        preload="auto"
        onError={() => {
          setFailed(true);
        }}
      />
      {failed ? (
        <p className="video-player__error" role="alert">
          {t('videos.playFailed')}
        </p>
      ) : null}
    </div>
  );
}

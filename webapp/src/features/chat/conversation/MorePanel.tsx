import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ContactCardIcon, FileIcon, ImageIcon, LocationIcon, VideoIcon } from '../../../components/icons/Icons';
import { MoreTile as Tile } from './MoreTile';

interface MorePanelProps {
  onImage: (file: File) => void;
  onVideo: (file: File) => void;
  onFile: (file: File) => void;
  onLocation: () => void;
  onCard: () => void;
}

/** Album, video, file, location and business card. */
export function MorePanel({ onImage, onVideo, onFile, onLocation, onCard }: MorePanelProps) {
  const { t } = useTranslation();
  const image = useRef<HTMLInputElement>(null);
  const video = useRef<HTMLInputElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const picked = (handler: (f: File) => void) => (event: ChangeEvent<HTMLInputElement>) => {
    const f = event.target.files?.[0];
    event.target.value = '';
    if (f) handler(f);
  };
  return (
    <div className="composer-panel composer-panel--more" role="group" aria-label={t('chat.composer.more')}>
      <Tile label={t('chat.composer.album')} icon={<ImageIcon />} onClick={() => image.current?.click()} />
      <Tile label={t('chat.composer.video')} icon={<VideoIcon />} onClick={() => video.current?.click()} />
      <Tile label={t('chat.composer.file')} icon={<FileIcon />} onClick={() => file.current?.click()} />
      <Tile label={t('chat.composer.location')} icon={<LocationIcon />} onClick={onLocation} />
      <Tile label={t('chat.composer.card')} icon={<ContactCardIcon />} onClick={onCard} />
      <input ref={image} type="file" accept="image/*" hidden onChange={picked(onImage)} data-testid="pick-image" />
      <input ref={video} type="file" accept="video/*" hidden onChange={picked(onVideo)} data-testid="pick-video" />
      <input ref={file} type="file" hidden onChange={picked(onFile)} data-testid="pick-file" />
    </div>
  );
}

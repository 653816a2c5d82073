import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PictureElem } from '../../../../api/socket/types';
import { useAttachmentUrl } from '../../../../components/hooks/useAttachmentUrl';
import { firstText } from '../../data/text';
import { previewImagePath } from '../../paths';

const MAX = 200;

/** A thumbnail at its final size; tapping opens /preview-image. */
export function ImageContent({ elem }: { elem: PictureElem }) {
  const { t } = useTranslation();
  const source = elem.sourcePicture;
  const thumb = firstText(elem.snapshotPicture?.url, elem.bigPicture?.url, source?.url);
  const full = firstText(elem.bigPicture?.url, source?.url, thumb);
  const w = source?.width ?? 0;
  const h = source?.height ?? 0;
  // Attachments load through a signed link (api/attachments.ts); the preview resolves its own.
  const src = useAttachmentUrl(thumb);
  const scale = w > 0 && h > 0 ? Math.min(1, MAX / Math.max(w, h)) : 1;
  const width = w > 0 ? Math.max(60, Math.round(w * scale)) : 160;
  const height = h > 0 ? Math.max(60, Math.round(h * scale)) : 120;
  const image = <img className="msg-image" src={src} alt={t('chat.preview.image')} width={width} height={height} loading="lazy" />;
  if (!full || full.startsWith('blob:')) return image;
  return (
    <Link to={previewImagePath(full)} className="msg-image-link" aria-label={t('chat.message.viewImage')}>
      {image}
    </Link>
  );
}

import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useAttachmentUrl } from '../../../components/hooks/useAttachmentUrl';
import { MissingPage } from '../../../components/page-header/MissingPage';
import './system.css';

/** Only our own files and http(s) images are shown (never javascript: or data: from a URL). */
function safeImageURL(raw: string | null): string {
  if (!raw) return '';
  try {
    const url = new URL(raw, window.location.origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

/** /preview-image?url=: the picture full screen; a tap goes back. */
export function PreviewImagePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The page's address names the attachment, never a signed link (it would outlive the link).
  const ref = safeImageURL(params.get('url'));
  const url = useAttachmentUrl(ref);
  if (!ref) {
    return <MissingPage title={t('chat.preview.image')} message={t('chat.previewImage.missing')} />;
  }
  return (
    <main className="preview-image">
      <button
        type="button"
        className="preview-image__close"
        onClick={() => {
          void navigate(-1);
        }}
        aria-label={t('chat.close')}
      >
        <img className="preview-image__img" src={url} alt={t('chat.preview.image')} />
      </button>
      <a className="preview-image__download button button--secondary" href={url} download>
        {t('chat.previewImage.save')}
      </a>
    </main>
  );
}

import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
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
  const url = safeImageURL(params.get('url'));
  if (!url) {
    return (
      <main className="chat-page">
        <PageHeader title={t('chat.preview.image')} back />
        <EmptyState title={t('chat.previewImage.missing')} />
      </main>
    );
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

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { customerPath } from '../../navigation/paths';

interface VideoLimitNoticeProps {
  /** The server's message when it refused a view (code 1501), else the app's own text. */
  message?: string;
}

/** Non-activated accounts at the daily cap: why, and the way to customer service. */
export function VideoLimitNotice({ message }: VideoLimitNoticeProps) {
  const { t } = useTranslation();
  return (
    <section className="video-limit" role="alert" aria-labelledby="video-limit-title">
      <h2 id="video-limit-title" className="video-limit__title">
        {t('videos.limit.title')}
      </h2>
      <p className="video-limit__text">{message ?? t('videos.limit.text')}</p>
      <Link className="button button--block" to={customerPath(t('videos.limit.draft'), { kind: 'videoLimit' })}>
        {t('videos.limit.contact')}
      </Link>
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { LocationIcon } from '../../../components/icons/Icons';
import './system.css';

function coordinate(raw: string | null, limit: number): number | null {
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}

/** /open-location?latitude=&longitude=&name=: the place of a location message, with links to map apps. */
export function OpenLocationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const lat = coordinate(params.get('latitude'), 90);
  const lon = coordinate(params.get('longitude'), 180);
  const name = params.get('name') ?? '';
  if (lat === null || lon === null) {
    return (
      <main className="chat-page">
        <PageHeader title={t('chat.location.title')} back />
        <EmptyState title={t('chat.location.invalid')} />
      </main>
    );
  }
  const osm = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  const geo = `geo:${lat},${lon}${name ? `?q=${lat},${lon}(${encodeURIComponent(name)})` : ''}`;
  return (
    <main className="chat-page">
      <PageHeader title={t('chat.location.title')} back />
      <div className="chat-page__scroll">
        <section className="location-card">
          <span className="location-card__pin" aria-hidden="true">
            <LocationIcon />
          </span>
          <h2 className="location-card__name">{name || t('chat.location.unnamed')}</h2>
          <p className="chat-muted-text">
            {t('chat.location.coordinates', { latitude: lat.toFixed(6), longitude: lon.toFixed(6) })}
          </p>
        </section>
        <div className="chat-actions">
          <a className="button button--block" href={osm} target="_blank" rel="noopener noreferrer">
            {t('chat.location.openMap')}
          </a>
          <a className="button button--block button--secondary" href={geo}>
            {t('chat.location.openApp')}
          </a>
        </div>
      </div>
    </main>
  );
}

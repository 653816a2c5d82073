import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Listing } from '../../api/content';
import { customerPath } from '../../navigation/paths';
import { assetUrl } from '../../api/assets';
import styles from './city.module.css';

interface ListingCardProps {
  listing: Listing;
}

/** One person in the same-city list: photos, name, age, badges; contact only through customer service. */
export function ListingCard({ listing }: ListingCardProps) {
  const { t } = useTranslation();
  const [photo, setPhoto] = useState(0);
  const photos = listing.photos.length > 0 ? listing.photos : [];
  return (
    <article className={styles['listing-card']} data-listing={listing.id} aria-labelledby={`listing-${listing.id}`}>
      {photos.length > 0 ? (
        <div className={styles['listing-card__photos']}>
          <div
            className={styles['listing-card__track']}
            onScroll={(event) => {
              const el = event.currentTarget;
              setPhoto(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)));
            }}
          >
            {photos.map((src, i) => (
              <img
                key={src}
                className={styles['listing-card__photo']}
                data-testid="listing-photo"
                src={assetUrl(src)}
                alt={t('city.photoAlt', { name: listing.name, index: i + 1, count: photos.length })}
                loading="lazy"
                draggable={false}
              />
            ))}
          </div>
          {photos.length > 1 ? (
            <span className={styles['listing-card__counter']} aria-hidden="true">
              {photo + 1}/{photos.length}
            </span>
          ) : null}
        </div>
      ) : null}
      <div className={styles['listing-card__body']}>
        <h3 id={`listing-${listing.id}`} className={styles['listing-card__name']} data-testid="listing-name">
          {listing.name}
          <span className={styles['listing-card__age']} data-testid="listing-age">{t('city.age', { age: listing.age })}</span>
        </h3>
        <p className={styles['listing-card__badges']}>
          {listing.certified === 1 ? <span className={`${styles.badge} ${styles['badge--certified']}`} data-testid="badge-certified">{t('city.certified')}</span> : null}
          {listing.depositPaid === 1 ? <span className={`${styles.badge} ${styles['badge--deposit']}`} data-testid="badge-deposit">{t('city.depositPaid')}</span> : null}
          <span className={styles['listing-card__city']}>{listing.city}</span>
        </p>
        {listing.intro ? <p className={styles['listing-card__intro']}>{listing.intro}</p> : null}
        <Link
          className={`button button--block ${styles['listing-card__contact']}`}
          to={customerPath(t('city.contactDraft', { name: listing.name, city: listing.city }), { kind: 'listing', id: listing.id })}
        >
          {t('city.getContact')}
        </Link>
      </div>
    </article>
  );
}

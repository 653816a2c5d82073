import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Banner } from '../../api/content';
import { appLinkTarget } from './links';
import { assetUrl } from '../../api/assets';
import styles from './discover.module.css';

interface CarouselProps {
  banners: readonly Banner[];
  intervalMs?: number;
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The operator's banners: swipeable (scroll snap), advancing every 4 s unless touched. */
export function Carousel({ banners, intervalMs = 4000 }: CarouselProps) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || banners.length < 2 || reducedMotion()) return undefined;
    const timer = setInterval(() => {
      const el = track.current;
      if (!el) return;
      const next = (Math.round(el.scrollLeft / Math.max(1, el.clientWidth)) + 1) % banners.length;
      el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [paused, banners.length, intervalMs]);

  if (banners.length === 0) return null;
  return (
    <section className={styles.carousel} aria-roledescription="carousel" aria-label={t('discover.carousel')}>
      <div
        ref={track}
        className={styles.carousel__track}
        onScroll={(event) => {
          const el = event.currentTarget;
          setIndex(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)));
        }}
        onTouchStart={() => {
          setPaused(true);
        }}
        onTouchEnd={() => {
          setPaused(false);
        }}
        onFocus={() => {
          setPaused(true);
        }}
        onBlur={() => {
          setPaused(false);
        }}
      >
        {banners.map((banner, i) => {
          const target = appLinkTarget(banner.link, banner.title);
          const image = (
            <img className={styles.carousel__image} data-testid="carousel-image" src={assetUrl(banner.image)} alt={banner.title} loading={i === 0 ? 'eager' : 'lazy'} draggable={false} />
          );
          return (
            <div
              key={banner.id}
              className={styles.carousel__slide}
              role="group"
              aria-roledescription="slide"
              aria-label={t('discover.slide', { index: i + 1, count: banners.length })}
            >
              {target ? (
                <Link to={target} className={styles.carousel__link} data-testid="carousel-link">
                  {image}
                </Link>
              ) : (
                image
              )}
            </div>
          );
        })}
      </div>
      {banners.length > 1 ? (
        <div className={styles.carousel__dots} aria-hidden="true">
          {banners.map((banner, i) => (
            <span key={banner.id} className={`${styles.carousel__dot}${i === index ? ` ${styles['carousel__dot--active']}` : ''}`} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

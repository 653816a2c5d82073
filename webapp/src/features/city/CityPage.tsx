import '../../components/ui/ui.css';
import { useQueryClient } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { TAB_PATHS } from '../../navigation/paths';
import { PageHeader } from '../../components/page-header/PageHeader';
import { useNextPageNearEnd } from '../../components/infinite-list/useNextPageNearEnd';
import { PullRefresh } from '../../components/pull-refresh/PullRefresh';
import { CityPicker } from './CityPicker';
import { ListingCard } from './ListingCard';
import { cityKeys, useCities, useListings } from './queries';
import styles from './city.module.css';

/** Same city (/pages/tabBar/city): pick a city, browse its listings; contacts go through customer service. */
export function CityPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const cities = useCities();
  const chosen = params.get('city');
  const cityList = cities.data ?? [];
  const selected = chosen && cityList.some((c) => c.id === chosen) ? chosen : (cityList[0]?.id ?? null);
  const listings = useListings(selected);
  const rows = listings.data?.pages.flatMap((p) => p.list) ?? [];

  const listRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    setMargin(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  }, [rows.length, selected]);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => 420,
    overscan: 2,
    scrollMargin: margin,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  useNextPageNearEnd(listings, items.at(-1)?.index, rows.length, 2);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: cityKeys.cities }),
      selected ? client.invalidateQueries({ queryKey: cityKeys.listings(selected) }) : Promise.resolve(),
    ]);

  let body;
  if (cities.isPending) body = <p className="muted-note">{t('common.loading')}</p>;
  else if (cities.isError) {
    body = (
      <EmptyState title={t('city.loadFailed')} text={cities.error.message}>
        <button type="button" className="button" onClick={() => void cities.refetch()}>
          {t('discover.retry')}
        </button>
      </EmptyState>
    );
  } else if (cityList.length === 0) {
    body = <EmptyState title={t('pages.city.emptyTitle')} text={t('pages.city.emptyText')} />;
  } else {
    body = (
      <>
        <CityPicker
          cities={cityList}
          selected={selected}
          onSelect={(id) => {
            setParams({ city: id }, { replace: true });
            window.scrollTo({ top: 0 });
          }}
        />
        {listings.isPending ? (
          <p className="muted-note">{t('common.loading')}</p>
        ) : listings.isError ? (
          <EmptyState title={t('city.loadFailed')} text={listings.error.message}>
            <button type="button" className="button" onClick={() => void listings.refetch()}>
              {t('discover.retry')}
            </button>
          </EmptyState>
        ) : rows.length === 0 ? (
          <EmptyState title={t('pages.city.emptyTitle')} text={t('pages.city.emptyText')} />
        ) : (
          <div ref={listRef} className={styles.listings} style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const listing = rows[item.index]!;
              return (
                <div
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className={styles.listings__row}
                  style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
                >
                  <ListingCard listing={listing} />
                </div>
              );
            })}
          </div>
        )}
        {listings.isFetchingNextPage ? <p className="muted-note">{t('common.loading')}</p> : null}
      </>
    );
  }

  return (
    <main className="city-page">
      <PageHeader title={t('pages.city.title')} back fallback={TAB_PATHS.find} />
      <PullRefresh onRefresh={refresh}>{body}</PullRefresh>
    </main>
  );
}

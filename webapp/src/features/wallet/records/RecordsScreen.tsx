import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { DayFilter, Page } from '../../../api/wallet';
import { queryKeys } from '../../account/queries';
import { TAB_PATHS } from '../../../navigation/paths';
import { InfiniteList, nextPageParam } from '../../../components/infinite-list/InfiniteList';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { SegmentTabs, type Segment } from '../../../components/tabs/SegmentTabs';
import styles from './records.module.css';

export const DAY_FILTERS: readonly DayFilter[] = [0, 7, 15, 30];
const PAGE_SIZE = 20;

const STATE_CLASSES: Record<number, string> = {
  0: styles['record__state--0'],
  1: styles['record__state--1'],
  2: styles['record__state--2'],
};

/** The state badge of a record row, coloured by state (0 pending, 1 done, 2 failed or lost). */
export function recordStateClass(state: number): string {
  return `${styles.record__state} ${STATE_CLASSES[state] ?? ''}`;
}

interface RecordsScreenProps<Tab extends string, T> {
  /** Names the query (`records/<name>/<tab>/<days>`). */
  name: string;
  title: string;
  tabs: readonly Segment<Tab>[];
  fetchPage: (query: { tab: Tab; days: DayFilter; page: number; pageSize: number }, signal: AbortSignal) => Promise<Page<T>>;
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  estimateSize: number;
  emptyTitle: string;
}

function dayFilterOf(value: string | null): DayFilter {
  const n = Number(value);
  return (DAY_FILTERS as readonly number[]).includes(n) && value !== null && value !== '' ? (n as DayFilter) : 0;
}

/**
 * A record screen: its tabs, the day filter (today, 7, 15, 30 days) and a
 * virtualised infinite list with pull-to-refresh. Tab and days live in the URL, so going back
 * to the screen keeps them.
 */
export function RecordsScreen<Tab extends string, T>({
  name,
  title,
  tabs,
  fetchPage,
  getKey,
  renderItem,
  estimateSize,
  emptyTitle,
}: RecordsScreenProps<Tab, T>) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const first = tabs[0]?.value;
  const tab = tabs.find((s) => s.value === params.get('tab'))?.value ?? first;
  const days = dayFilterOf(params.get('days'));

  const query = useInfiniteQuery({
    queryKey: [...queryKeys.records, name, tab, days],
    queryFn: ({ pageParam, signal }) => {
      if (tab === undefined) throw new Error('no tabs');
      return fetchPage({ tab, days, page: pageParam, pageSize: PAGE_SIZE }, signal);
    },
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  });

  const set = (key: 'tab' | 'days', value: string): void => {
    const copy = new URLSearchParams(params);
    copy.set(key, value);
    setParams(copy, { replace: true });
  };

  const daySegments = DAY_FILTERS.map((d) => ({
    value: d,
    label: d === 0 ? t('records.today') : t('records.lastDays', { count: d }),
  }));

  return (
    <main className="page page--fill">
      <PageHeader title={title} back fallback={TAB_PATHS.mine} />
      {tab !== undefined ? (
        <SegmentTabs
          label={t('records.tabsLabel')}
          segments={tabs}
          value={tab}
          onChange={(value) => {
            set('tab', value);
          }}
        />
      ) : null}
      <SegmentTabs
        variant="chips"
        label={t('records.daysLabel')}
        segments={daySegments}
        value={days}
        onChange={(value) => {
          set('days', String(value));
        }}
      />
      <InfiniteList
        key={`${tab ?? ''}-${days}`}
        query={query}
        label={title}
        getKey={getKey}
        renderItem={renderItem}
        estimateSize={estimateSize}
        emptyTitle={emptyTitle}
        emptyText={t('records.emptyText')}
      />
    </main>
  );
}

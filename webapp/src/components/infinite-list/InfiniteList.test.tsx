import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { InfiniteList, nextPageParam, PULL_THRESHOLD, type ListPage } from './InfiniteList';

interface Row {
  id: string;
}

const ROW_HEIGHT = 60;
const VIEW_HEIGHT = 600;

// jsdom lays nothing out: give the scroller and the rows their sizes.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEW_HEIGHT);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(390);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(ROW_HEIGHT);
});

afterEach(() => {
  vi.restoreAllMocks();
});

function List({ fetchPage }: { fetchPage: (page: number) => Promise<ListPage<Row>> }) {
  const query = useInfiniteQuery({
    queryKey: ['rows'],
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  });
  return (
    <InfiniteList
      query={query}
      label="Rows"
      getKey={(row: Row) => row.id}
      renderItem={(row: Row) => <span>row {row.id}</span>}
      estimateSize={ROW_HEIGHT}
      emptyTitle="Nothing here"
    />
  );
}

function renderList(fetchPage: (page: number) => Promise<ListPage<Row>>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={createI18n('en-US')}>
        <List fetchPage={fetchPage} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** `total` rows served 20 a page. */
function pages(total: number) {
  return vi.fn((page: number) => {
    const start = (page - 1) * 20;
    const list = Array.from({ length: Math.max(0, Math.min(20, total - start)) }, (_, i) => ({ id: String(start + i) }));
    return Promise.resolve({ list, total, page });
  });
}

describe('nextPageParam', () => {
  it('asks for the next page until every row is loaded', () => {
    const first = { list: [{ id: '1' }], total: 2, page: 1 };
    expect(nextPageParam(first, [first])).toBe(2);
    const second = { list: [{ id: '2' }], total: 2, page: 2 };
    expect(nextPageParam(second, [first, second])).toBeUndefined();
    // An empty page ends the list even if the total says otherwise.
    const empty = { list: [], total: 5, page: 3 };
    expect(nextPageParam(empty, [first, second, empty])).toBeUndefined();
  });
});

describe('InfiniteList', () => {
  it('renders only the rows in view and loads the next page near the end', async () => {
    const fetchPage = pages(100);
    renderList(fetchPage);
    await screen.findByText('row 0');
    const rendered = screen.getAllByRole('listitem').length;
    // 600 px of 60 px rows plus overscan, never all the loaded ones.
    expect(rendered).toBeGreaterThanOrEqual(10);
    expect(rendered).toBeLessThan(20);
    expect(fetchPage).toHaveBeenCalledTimes(1);

    const scroller = screen.getByRole('list', { name: 'Rows' }).parentElement!;
    act(() => {
      scroller.scrollTop = 19 * ROW_HEIGHT;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => {
      expect(fetchPage).toHaveBeenCalledWith(2);
    });
    await screen.findByText('row 25');
  });

  it('says there is no more when everything is loaded', async () => {
    const fetchPage = pages(3);
    renderList(fetchPage);
    await screen.findByText('row 2');
    expect(screen.getByText('No more')).toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state for no rows', async () => {
    renderList(pages(0));
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeInTheDocument();
  });

  it('shows the error with a retry that loads again', async () => {
    let fail = true;
    const fetchPage = vi.fn(() => (fail ? Promise.reject(new Error('Network request failed')) : pages(1)(1)));
    renderList(fetchPage);
    expect(await screen.findByText('Network request failed')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('row 0');
  });

  it('pulling down at the top past the threshold refreshes', async () => {
    const fetchPage = pages(3);
    renderList(fetchPage);
    await screen.findByText('row 0');
    const scroller = screen.getByRole('list', { name: 'Rows' }).parentElement!;
    fireEvent.touchStart(scroller, { touches: [{ clientY: 100 }] });
    fireEvent.touchMove(scroller, { touches: [{ clientY: 100 + PULL_THRESHOLD }] });
    expect(screen.getByText('Pull down to refresh')).toBeInTheDocument();
    fireEvent.touchMove(scroller, { touches: [{ clientY: 100 + PULL_THRESHOLD * 2 + 10 }] });
    expect(screen.getByText('Release to refresh')).toBeInTheDocument();
    fireEvent.touchEnd(scroller);
    await waitFor(() => {
      expect(fetchPage).toHaveBeenCalledTimes(2);
    });
  });
});

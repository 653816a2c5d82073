import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { contentApi } from '../../api/content';

export const cityKeys = {
  cities: ['content', 'cities'] as const,
  listings: (city: string) => ['content', 'listings', city] as const,
};

export function useCities() {
  return useQuery({ queryKey: cityKeys.cities, queryFn: () => contentApi.cities({ quiet: true }), staleTime: 60_000 });
}

export function useListings(city: string | null) {
  return useInfiniteQuery({
    queryKey: cityKeys.listings(city ?? ''),
    queryFn: ({ pageParam }) => contentApi.listings(city ?? '', { page: pageParam, pageSize: 10 }, { quiet: true }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.pages ? last.page + 1 : undefined),
    enabled: city !== null && city !== '',
  });
}

/** Query keys and options of player protection; they belong to the signed-in user. */
import { queryOptions } from '@tanstack/react-query';
import { protectionApi } from '../../api/protection';

export const protectionKeys = {
  all: ['protection'] as const,
  status: ['protection', 'status'] as const,
  session: (since: number) => ['protection', 'session', since] as const,
};

/** Limits, exclusion, reality-check interval and today's net result. */
export const protectionStatusQuery = queryOptions({
  queryKey: protectionKeys.status,
  queryFn: ({ signal }) => protectionApi.status(0, { signal }),
});

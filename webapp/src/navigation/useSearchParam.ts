import { useSearchParams } from 'react-router';

/** One query parameter of the page's URL (`?userID=…`), '' when it is not there. */
export function useSearchParam(name: string): string {
  const [params] = useSearchParams();
  return params.get(name) ?? '';
}

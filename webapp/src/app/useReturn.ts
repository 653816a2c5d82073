import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from './paths';

/**
 * Where a form goes when it is done: the `?redirect=` it was opened with, else back in
 * history, else `fallback`.
 */
export function useReturn(fallback: string): () => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return useCallback(() => {
    if (redirect) {
      void navigate(safeRedirect(redirect), { replace: true });
      return;
    }
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, redirect, fallback]);
}

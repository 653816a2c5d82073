import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from './paths';

/** The router's index of the current history entry: above 0 when there is a page to go back to. */
function historyIndex(): number {
  const state: unknown = window.history.state;
  const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
  return typeof index === 'number' ? index : 0;
}

/** Back in history, or to `fallback` (in place of this page) when the app was opened here. */
export function useBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (historyIndex() > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}

/**
 * Where a form goes when it is done: the `?redirect=` it was opened with, else back in
 * history, else `fallback`.
 */
export function useReturn(fallback: string): () => void {
  const navigate = useNavigate();
  const back = useBack(fallback);
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return useCallback(() => {
    if (redirect) void navigate(safeRedirect(redirect), { replace: true });
    else back();
  }, [navigate, back, redirect]);
}

import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { TOAST_DURATION_MS, toastAtom } from '../../state/toast';
import './Toast.css';

/** Shows the latest toast for 1500 ms. The live region is always present. */
export function Toast() {
  const [toast, setToast] = useAtom(toastAtom);
  useEffect(() => {
    if (!toast) return undefined;
    const timer = window.setTimeout(() => {
      setToast((current) => (current?.id === toast.id ? null : current));
    }, TOAST_DURATION_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [toast, setToast]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast ? (
        <div key={toast.id} className="toast">
          {toast.text}
        </div>
      ) : null}
    </div>
  );
}

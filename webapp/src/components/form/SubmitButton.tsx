import { useTranslation } from 'react-i18next';

interface SubmitButtonProps {
  label: string;
  /** The request is under way: the button says so and ignores taps. */
  busy: boolean;
  /** Disabled for another reason (the throttle window, data still loading). */
  blocked?: boolean;
  /** Said while busy; "Submitting…" unless given. */
  busyLabel?: string;
}

/** The full-width submit button at the foot of a form. */
export function SubmitButton({ label, busy, blocked = false, busyLabel }: SubmitButtonProps) {
  const { t } = useTranslation();
  return (
    <button type="submit" className="button button--block" disabled={busy || blocked}>
      {busy ? (busyLabel ?? t('kit.submitting')) : label}
    </button>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './form.css';

type State = { kind: 'ready' } | { kind: 'getting' } | { kind: 'counting'; left: number } | { kind: 'resend' };

interface SmsCodeButtonProps {
  /** Sends the code; resolves with the cool-down in seconds, rejects when it was not sent. */
  onSend: () => Promise<number>;
  /** Checked before sending; return false to stay ready (e.g. the phone number is missing). */
  canSend?: () => boolean;
}

/** Spec section 4: ready → getting → counting down in seconds → resend. */
export function SmsCodeButton({ onSend, canSend }: SmsCodeButtonProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'ready' });
  const counting = state.kind === 'counting';

  useEffect(() => {
    if (!counting) return undefined;
    const timer = window.setInterval(() => {
      setState((s) => {
        if (s.kind !== 'counting') return s;
        return s.left <= 1 ? { kind: 'resend' } : { kind: 'counting', left: s.left - 1 };
      });
    }, 1000);
    return () => {
      window.clearInterval(timer);
    };
  }, [counting]);

  const send = (): void => {
    if (state.kind === 'getting' || state.kind === 'counting') return;
    if (canSend && !canSend()) return;
    const previous = state;
    setState({ kind: 'getting' });
    onSend().then(
      (seconds) => {
        setState(seconds > 0 ? { kind: 'counting', left: Math.ceil(seconds) } : { kind: 'resend' });
      },
      () => {
        setState(previous.kind === 'ready' ? { kind: 'ready' } : { kind: 'resend' });
      },
    );
  };

  let label: string;
  if (state.kind === 'getting') label = t('kit.smsGetting');
  else if (state.kind === 'counting') label = t('kit.smsCountdown', { count: state.left });
  else if (state.kind === 'resend') label = t('kit.smsResend');
  else label = t('kit.smsGet');

  return (
    <button
      type="button"
      className="field__button field__sms-button"
      onClick={send}
      disabled={state.kind === 'getting' || state.kind === 'counting'}
      data-state={state.kind}
    >
      {label}
    </button>
  );
}

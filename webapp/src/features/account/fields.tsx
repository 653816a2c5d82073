import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type SmsPurpose } from '../../api/accounts';
import { SmsCodeButton } from '../../components/form/SmsCodeButton';
import { TextField } from '../../components/form/TextField';
import { showToast } from '../../state/toast';
import { digitsOnly, PHONE_MAX } from './validation';

interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
}

/**
 * The account name of the sign-in and forgot-password forms; registering names a new account,
 * with the naming rule as the placeholder.
 */
export function AccountField({
  newAccount = false,
  ...props
}: FieldProps & {
  /** Registration's account, not yet taken, rather than an existing one. */
  newAccount?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('pages.login.account')}
      name={newAccount ? 'new-account' : 'account'}
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      placeholder={newAccount ? t('auth.accountRule') : t('pages.login.accountPlaceholder')}
      {...props}
    />
  );
}

/**
 * The password the user signs in with, revealable, as sign-in and switching account ask for it;
 * changing the password names it the original password.
 */
export function CurrentPasswordField({
  original = false,
  ...props
}: FieldProps & {
  /** Change password's "original password" rather than sign-in's "password". */
  original?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={original ? t('safety.oldPassword') : t('pages.login.password')}
      name={original ? 'old-password' : 'password'}
      revealable
      autoComplete="current-password"
      placeholder={original ? t('safety.oldPasswordPlaceholder') : t('pages.login.passwordPlaceholder')}
      {...props}
    />
  );
}

/** A mobile number: digits only, at most PHONE_MAX of them. */
export function PhoneField({ label, onChange, ...props }: FieldProps & { label: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={label}
      name="phone"
      type="tel"
      inputMode="numeric"
      autoComplete="tel"
      maxLength={PHONE_MAX}
      placeholder={t('auth.phonePlaceholder')}
      onChange={(value) => {
        onChange(digitsOnly(value));
      }}
      {...props}
    />
  );
}

/** The SMS code, with the button that sends it (and counts down to a resend). */
export function SmsCodeField({ onChange, sms, ...props }: FieldProps & { sms: SmsSender }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.smsCode')}
      name="sms-code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder={t('auth.smsCodePlaceholder')}
      onChange={(value) => {
        onChange(digitsOnly(value));
      }}
      trailing={<SmsCodeButton onSend={sms.send} canSend={sms.canSend} />}
      {...props}
    />
  );
}

export interface SmsSender {
  /** Why the last send failed, as the server said. */
  error: string | null;
  clearError: () => void;
  canSend: () => boolean;
  send: () => Promise<number>;
}

/**
 * Sends an SMS code for `purpose` to the phone `target()` names, once `canSend()` (the form's
 * own checks) agrees; a refusal is kept to show in the form's message.
 */
export function useSmsSender(purpose: SmsPurpose, target: () => { phone: string; account?: string }, canSend: () => boolean): SmsSender {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  return {
    error,
    clearError: () => {
      setError(null);
    },
    canSend: () => {
      setError(null);
      return canSend();
    },
    send: async () => {
      const { phone, account } = target();
      try {
        const sent = await accountsApi.sendSmsCode(phone, purpose, account);
        showToast(t('kit.smsSent'));
        return sent.resendSeconds;
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : t('api.networkFailed'));
        throw failure;
      }
    },
  };
}

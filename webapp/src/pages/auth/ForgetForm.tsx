import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type ForgetInput } from '../../api/accounts';
import {
  checkConfirmation,
  checkPassword,
  checkPhone,
  checkSmsCode,
  digitsOnly,
  type MessageKey,
} from '../../account/validation';
import { FormMessage } from '../../components/form/FormMessage';
import { SmsCodeButton } from '../../components/form/SmsCodeButton';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { showToast } from '../../state/toast';

interface ForgetFormProps {
  initialAccount: string;
  onDone: (account: string) => void;
  onCancel: () => void;
}

type Field = 'account' | 'phone' | 'sms' | 'password' | 'confirm';

/** Forgot password: a code sent to the account's bound phone sets a new password. */
export function ForgetForm({ initialAccount, onDone, onCancel }: ForgetFormProps) {
  const { t } = useTranslation();
  const throttle = useSubmitThrottle();
  const [account, setAccount] = useState(initialAccount);
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);
  const [smsError, setSmsError] = useState<string | null>(null);

  const reset = useMutation({
    mutationFn: (input: ForgetInput) => accountsApi.forget(input),
    onSuccess: (_data, input) => {
      showToast(t('auth.forgetDone'));
      onDone(input.account);
    },
  });

  const canSend = (): boolean => {
    setSmsError(null);
    if (!account.trim()) {
      setProblem({ field: 'account', key: 'validation.accountRequired' });
      return false;
    }
    const phoneProblem = checkPhone(phone);
    if (phoneProblem) {
      setProblem({ field: 'phone', key: phoneProblem });
      return false;
    }
    setProblem(null);
    return true;
  };

  const send = async (): Promise<number> => {
    try {
      const sent = await accountsApi.sendSmsCode(phone, 'forget', account.trim());
      showToast(t('kit.smsSent'));
      return sent.resendSeconds;
    } catch (error) {
      setSmsError(error instanceof Error ? error.message : t('api.networkFailed'));
      throw error;
    }
  };

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (reset.isPending) return;
    setSmsError(null);
    const checks: [Field, MessageKey | null][] = [
      ['account', account.trim() ? null : 'validation.accountRequired'],
      ['phone', checkPhone(phone)],
      ['sms', checkSmsCode(smsCode)],
      ['password', checkPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
    ];
    const failed = checks.find(([, key]) => key !== null);
    if (failed?.[1]) {
      setProblem({ field: failed[0], key: failed[1] });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    reset.mutate({ account: account.trim(), phone, smsCode, password, confirmPassword: confirm });
  };

  const message = problem ? t(problem.key) : (smsError ?? reset.error?.message ?? null);

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="form__note">{t('auth.forgetIntro')}</p>
      <TextField
        label={t('pages.login.account')}
        name="account"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('pages.login.accountPlaceholder')}
        value={account}
        invalid={problem?.field === 'account'}
        onChange={setAccount}
      />
      <TextField
        label={t('auth.boundPhone')}
        name="phone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={11}
        placeholder={t('auth.phonePlaceholder')}
        value={phone}
        invalid={problem?.field === 'phone'}
        onChange={(value) => {
          setPhone(digitsOnly(value));
        }}
      />
      <TextField
        label={t('auth.smsCode')}
        name="sms-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={t('auth.smsCodePlaceholder')}
        value={smsCode}
        invalid={problem?.field === 'sms'}
        onChange={(value) => {
          setSmsCode(digitsOnly(value));
        }}
        trailing={<SmsCodeButton onSend={send} canSend={canSend} />}
      />
      <NewPasswordFields
        password={password}
        confirm={confirm}
        onPassword={setPassword}
        onConfirm={setConfirm}
        invalid={problem?.field === 'password' || problem?.field === 'confirm' ? problem.field : null}
      />
      <FormMessage message={message} />
      <button type="submit" className="button button--block" disabled={reset.isPending || throttle.blocked}>
        {reset.isPending ? t('kit.submitting') : t('auth.resetPassword')}
      </button>
      <button type="button" className="button button--text button--block" onClick={onCancel}>
        {t('auth.backToLogin')}
      </button>
    </form>
  );
}

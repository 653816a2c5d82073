import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type ForgetInput } from '../../../api/accounts';
import { checkConfirmation, checkPassword, checkPhone, checkSmsCode } from '../validation';
import { AccountField, PhoneField, SmsCodeField, useSmsSender } from '../fields';
import { FormMessage } from '../../../components/form/FormMessage';
import { NewPasswordFields, useNewPassword } from '../../../components/form/NewPasswordFields';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { showToast } from '../../../state/toast';
import { Link } from 'react-router';
import { customerPath } from '../../../navigation/paths';
import { PageLoading } from '../../../components/status/PageLoading';
import { baseDataQuery } from '../../launch/platform';

interface ForgetFormProps {
  initialAccount: string;
  onDone: (account: string) => void;
  onCancel: () => void;
}

type Field = 'account' | 'phone' | 'sms' | 'password' | 'confirm';

/**
 * Forgot password: a code sent to the account's bound phone sets a new password. Without an
 * SMS gateway (the server's base data says so) no code reaches a phone: customer service
 * resets the password instead.
 */
export function ForgetForm(props: ForgetFormProps) {
  const { t } = useTranslation();
  const base = useQuery(baseDataQuery);
  if (base.isPending) return <PageLoading />;
  if (base.isSuccess && !base.data.smsEnabled) {
    const account = props.initialAccount.trim();
    return (
      <div className="form" data-testid="forget-service">
        <p className="form__note">{t('auth.forgetViaService')}</p>
        <Link className="button button--block" to={customerPath(account ? t('auth.forgetDraftAccount', { account }) : t('auth.forgetDraft'))}>
          {t('auth.contactService')}
        </Link>
        <button type="button" className="button button--text button--block" onClick={props.onCancel}>
          {t('auth.backToLogin')}
        </button>
      </div>
    );
  }
  return <SmsForgetForm {...props} />;
}

function SmsForgetForm({ initialAccount, onDone, onCancel }: ForgetFormProps) {
  const { t } = useTranslation();
  const form = useFormChecks<Field>();
  const [account, setAccount] = useState(initialAccount);
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const { password, confirm, fields: newPasswordFields } = useNewPassword();

  const reset = useMutation({
    mutationFn: (input: ForgetInput) => accountsApi.forget(input),
    onSuccess: (_data, input) => {
      showToast(t('auth.forgetDone'));
      onDone(input.account);
    },
  });

  const sms = useSmsSender(
    'forget',
    () => ({ phone, account: account.trim() }),
    () =>
      form.ready(
        [
          ['account', account.trim() ? null : 'validation.accountRequired'],
          ['phone', checkPhone(phone)],
        ],
        { throttle: false },
      ),
  );

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (reset.isPending) return;
    sms.clearError();
    const ready = form.ready([
      ['account', account.trim() ? null : 'validation.accountRequired'],
      ['phone', checkPhone(phone)],
      ['sms', checkSmsCode(smsCode)],
      ['password', checkPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
    ]);
    if (ready) reset.mutate({ account: account.trim(), phone, smsCode, password, confirmPassword: confirm });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="form__note">{t('auth.forgetIntro')}</p>
      <AccountField value={account} invalid={form.invalid('account')} onChange={setAccount} />
      <PhoneField label={t('auth.boundPhone')} value={phone} invalid={form.invalid('phone')} onChange={setPhone} />
      <SmsCodeField value={smsCode} invalid={form.invalid('sms')} onChange={setSmsCode} sms={sms} />
      <NewPasswordFields {...newPasswordFields} invalid={form.invalid} />
      <FormMessage message={form.message(sms.error ?? reset.error?.message)} />
      <SubmitButton label={t('auth.resetPassword')} busy={reset.isPending} blocked={form.blocked} />
      <button type="button" className="button button--text button--block" onClick={onCancel}>
        {t('auth.backToLogin')}
      </button>
    </form>
  );
}

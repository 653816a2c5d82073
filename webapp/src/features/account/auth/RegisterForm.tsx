import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type RegisterInput } from '../../../api/accounts';
import { storedSuperior } from '../invite';
import { registerConfigQuery, verifyTypesQuery } from '../queries';
import { AccountField } from '../fields';
import { useAccountActions } from '../session';
import {
  checkAccount,
  checkConfirmation,
  checkInviteCode,
  checkPassword,
  isInviteCode,
} from '../validation';
import { FormMessage } from '../../../components/form/FormMessage';
import { NewPasswordFields, useNewPassword } from '../../../components/form/NewPasswordFields';
import { TextField } from '../../../components/form/TextField';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { RefreshIcon } from '../../../components/icons/Icons';
import { countEvent } from '../../launch/beacon';

interface RegisterFormProps {
  switching: boolean;
  /** `inviteCode` of the page's URL. */
  launchInviteCode: string | null;
  onSignedIn: () => void;
}

type Field = 'account' | 'password' | 'confirm' | 'invite' | 'captcha';

/**
 * Registration: account, password (the spec's rules and messages), confirmation, invite code
 * (prefilled from the link or the stored superior), and the image captcha when
 * `/getVerifyType` asks for one. A new account is signed in at once.
 */
export function RegisterForm({ switching, launchInviteCode, onSignedIn }: RegisterFormProps) {
  const { t } = useTranslation();
  const { register } = useAccountActions();
  const form = useFormChecks<Field>();
  const [account, setAccount] = useState('');
  const { password, confirm, fields: newPasswordFields } = useNewPassword();
  const [invite, setInvite] = useState(() =>
    isInviteCode(launchInviteCode) ? launchInviteCode : (storedSuperior() ?? ''),
  );
  const [captchaCode, setCaptchaCode] = useState('');

  const verify = useQuery(verifyTypesQuery);
  const config = useQuery(registerConfigQuery);
  const needCaptcha = verify.data?.register === 'captcha' || config.data?.captchaRequired === true;
  const inviteRequired = config.data?.inviteCodeRequired === true;
  const captcha = useQuery({
    queryKey: ['account', 'captcha'],
    queryFn: () => accountsApi.captcha(),
    enabled: needCaptcha,
    staleTime: Infinity,
    gcTime: 0,
  });

  const submit = useMutation({
    mutationFn: (input: RegisterInput) => register(input, { switching }),
    onSuccess: (...args: Parameters<typeof onSignedIn>) => {
      countEvent('register');
      onSignedIn(...args);
    },
    onError: () => {
      // A captcha is spent by its first check, right or wrong.
      if (needCaptcha) {
        setCaptchaCode('');
        void captcha.refetch();
      }
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (submit.isPending) return;
    const name = account.trim();
    const code = invite.trim();
    const input: RegisterInput = { account: name, password, confirmPassword: confirm };
    if (code) input.inviteCode = code;
    if (needCaptcha && captcha.data) {
      input.captchaId = captcha.data.captchaId;
      input.captchaCode = captchaCode.trim();
    }
    const ready = form.ready([
      ['account', checkAccount(name)],
      ['password', checkPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
      ['invite', checkInviteCode(code, inviteRequired)],
      ['captcha', needCaptcha && !captchaCode.trim() ? 'validation.captchaRequired' : null],
    ]);
    if (ready) submit.mutate(input);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <AccountField newAccount value={account} invalid={form.invalid('account')} onChange={setAccount} />
      <NewPasswordFields label={t('pages.login.password')} {...newPasswordFields} invalid={form.invalid} />
      <TextField
        label={inviteRequired ? t('auth.inviteCode') : t('auth.inviteCodeOptional')}
        name="invite-code"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('auth.inviteCodePlaceholder')}
        value={invite}
        invalid={form.invalid('invite')}
        onChange={setInvite}
      />
      {needCaptcha ? (
        <TextField
          label={t('auth.captcha')}
          name="captcha"
          inputMode="numeric"
          autoComplete="off"
          maxLength={captcha.data?.length ?? 8}
          placeholder={t('auth.captchaPlaceholder')}
          value={captchaCode}
          invalid={form.invalid('captcha')}
          onChange={(value) => {
            setCaptchaCode(value.replace(/\D+/g, ''));
          }}
          trailing={
            <button
              type="button"
              className="field__captcha"
              aria-label={t('auth.captchaRefresh')}
              onClick={() => {
                void captcha.refetch();
              }}
            >
              {captcha.data ? <img src={captcha.data.image} alt={t('auth.captchaImage')} /> : <RefreshIcon />}
            </button>
          }
        />
      ) : null}
      <FormMessage message={form.message(submit.error?.message)} />
      <SubmitButton label={t('auth.register')} busyLabel={t('auth.registering')} busy={submit.isPending} blocked={form.blocked} />
    </form>
  );
}

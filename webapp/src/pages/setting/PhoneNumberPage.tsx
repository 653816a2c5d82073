import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type UserInfo } from '../../api/accounts';
import { queryKeys, useUserInfo, verifyTypesQuery } from '../../account/queries';
import { checkPhone, checkSmsCode, digitsOnly, PHONE_MAX, type MessageKey } from '../../account/validation';
import { MY_PATHS } from '../../app/paths';
import { useReturn } from '../../app/useReturn';
import { FormMessage } from '../../components/form/FormMessage';
import { SmsCodeButton } from '../../components/form/SmsCodeButton';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { PageHeader } from '../../components/page-header/PageHeader';
import { showToast } from '../../state/toast';

type Field = 'phone' | 'sms';

/** Bind or change the phone number; with an SMS code when `/getVerifyType` says so. */
export function PhoneNumberPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const verify = useQuery(verifyTypesQuery);
  const needSms = verify.data?.setPhone === 'sms';
  const done = useReturn(MY_PATHS.safetySetting);
  const throttle = useSubmitThrottle();
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);
  const [smsError, setSmsError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: () => accountsApi.setPhone(phone, needSms ? smsCode : undefined),
    onSuccess: (data) => {
      queryClient.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, phone: data.phone } : old));
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
      showToast(t('safety.phoneSaved'));
      done();
    },
  });

  const canSend = (): boolean => {
    setSmsError(null);
    const key = checkPhone(phone);
    setProblem(key ? { field: 'phone', key } : null);
    return key === null;
  };

  const send = async (): Promise<number> => {
    try {
      const sent = await accountsApi.sendSmsCode(phone, 'setPhone');
      showToast(t('kit.smsSent'));
      return sent.resendSeconds;
    } catch (error) {
      setSmsError(error instanceof Error ? error.message : t('api.networkFailed'));
      throw error;
    }
  };

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    setSmsError(null);
    const checks: [Field, MessageKey | null][] = [
      ['phone', checkPhone(phone)],
      ['sms', needSms ? checkSmsCode(smsCode) : null],
    ];
    const failed = checks.find(([, key]) => key !== null);
    if (failed?.[1]) {
      setProblem({ field: failed[0], key: failed[1] });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    save.mutate();
  };

  const current = user.data?.phone;
  return (
    <main className="page">
      <PageHeader title={t('safety.phone')} back fallback={MY_PATHS.safetySetting} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <p className="form__note">
          {current ? t('safety.currentPhone', { phone: current }) : t('safety.noPhone')}
        </p>
        <TextField
          label={t('safety.newPhone')}
          name="phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          maxLength={PHONE_MAX}
          placeholder={t('auth.phonePlaceholder')}
          value={phone}
          invalid={problem?.field === 'phone'}
          onChange={(value) => {
            setPhone(digitsOnly(value));
          }}
        />
        {needSms ? (
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
        ) : null}
        <FormMessage message={problem ? t(problem.key) : (smsError ?? save.error?.message ?? null)} />
        <button type="submit" className="button button--block" disabled={save.isPending || verify.isPending || throttle.blocked}>
          {save.isPending ? t('kit.saving') : t('kit.save')}
        </button>
      </form>
    </main>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../../api/accounts';
import { patchUserInfo, useUserInfo, verifyTypesQuery } from '../queries';
import { checkPhone, checkSmsCode } from '../validation';
import { PhoneField, SmsCodeField, useSmsSender } from '../fields';
import { MY_PATHS } from '../../../navigation/paths';
import { useReturn } from '../../../navigation/useReturn';
import { FormMessage } from '../../../components/form/FormMessage';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';

type Field = 'phone' | 'sms';

/** Bind or change the phone number; with an SMS code when `/getVerifyType` says so. */
export function PhoneNumberPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const verify = useQuery(verifyTypesQuery);
  const needSms = verify.data?.setPhone === 'sms';
  const done = useReturn(MY_PATHS.safetySetting);
  const form = useFormChecks<Field>();
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');

  const save = useMutation({
    mutationFn: () => accountsApi.setPhone(phone, needSms ? smsCode : undefined),
    onSuccess: (data) => {
      patchUserInfo(queryClient, { phone: data.phone });
      showToast(t('safety.phoneSaved'));
      done();
    },
  });

  const sms = useSmsSender(
    'setPhone',
    () => ({ phone }),
    () => form.ready([['phone', checkPhone(phone)]], { throttle: false }),
  );

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    sms.clearError();
    const ready = form.ready([
      ['phone', checkPhone(phone)],
      ['sms', needSms ? checkSmsCode(smsCode) : null],
    ]);
    if (ready) save.mutate();
  };

  const current = user.data?.phone;
  return (
    <main className="page">
      <PageHeader title={t('safety.phone')} back fallback={MY_PATHS.safetySetting} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <p className="form__note">
          {current ? t('safety.currentPhone', { phone: current }) : t('safety.noPhone')}
        </p>
        <PhoneField label={t('safety.newPhone')} value={phone} invalid={form.invalid('phone')} onChange={setPhone} />
        {needSms ? <SmsCodeField value={smsCode} invalid={form.invalid('sms')} onChange={setSmsCode} sms={sms} /> : null}
        <FormMessage message={form.message(sms.error ?? save.error?.message)} />
        <SubmitButton label={t('kit.save')} busyLabel={t('kit.saving')} busy={save.isPending} blocked={verify.isPending || form.blocked} />
      </form>
    </main>
  );
}

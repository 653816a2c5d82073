import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../../api/accounts';
import { patchUserInfo, useUserInfo } from '../queries';
import { characterCount, checkNickname, NICKNAME_MAX } from '../validation';
import { MY_PATHS } from '../../../navigation/paths';
import { PageLoading } from '../../../components/status/PageLoading';
import { useReturn } from '../../../navigation/useReturn';
import { FormMessage } from '../../../components/form/FormMessage';
import { TextField } from '../../../components/form/TextField';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';

/** Set the nickname (1-10 characters). Also serves /pages/setting/nick-name. */
export function EditNickNamePage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  return (
    <main className="page">
      <PageHeader title={t('profile.setNickname')} back fallback={MY_PATHS.editInformation} />
      {user.isPending ? <PageLoading /> : <NicknameForm current={user.data?.nickName ?? ''} />}
    </main>
  );
}

function NicknameForm({ current }: { current: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = useReturn(MY_PATHS.editInformation);
  const form = useFormChecks<'nickname'>();
  const [value, setValue] = useState(current);
  const save = useMutation({
    mutationFn: (nickName: string) => accountsApi.editNick(nickName),
    onSuccess: ({ nickName }) => {
      patchUserInfo(queryClient, { nickName });
      showToast(t('kit.saved'));
      done();
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    if (form.ready([['nickname', checkNickname(value)]])) save.mutate(value.trim());
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label={t('profile.nickname')}
        name="nickname"
        autoComplete="nickname"
        placeholder={t('profile.nicknamePlaceholder')}
        hint={t('profile.nicknameCount', { length: characterCount(value.trim()), max: NICKNAME_MAX })}
        value={value}
        invalid={form.invalid('nickname')}
        onChange={setValue}
      />
      <FormMessage message={form.message(save.error?.message)} />
      <SubmitButton label={t('kit.save')} busyLabel={t('kit.saving')} busy={save.isPending} blocked={form.blocked} />
    </form>
  );
}

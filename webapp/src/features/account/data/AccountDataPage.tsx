import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { accountDataApi, type AccountExport } from '../../../api/accountData';
import { CurrentPasswordField } from '../fields';
import { MY_PATHS, SETTING_PATHS } from '../../../navigation/paths';
import { FormMessage } from '../../../components/form/FormMessage';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import styles from './AccountData.module.css';

/** Saves the export as a JSON file through a temporary link (the browser's download). */
export function saveExport(result: AccountExport): void {
  const blob = new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = result.fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/**
 * Your data and account: download everything the server holds about you as a file (the login
 * password asked again), and the way to deleting the account.
 */
export function AccountDataPage() {
  const { t } = useTranslation();
  const form = useFormChecks<'password'>();
  const [password, setPassword] = useState('');
  const download = useMutation({
    mutationFn: (pw: string) => accountDataApi.exportData(pw),
    onSuccess: (result) => {
      saveExport(result);
      setPassword('');
      showToast(t('leave.exported', { file: result.fileName }));
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (download.isPending) return;
    if (form.ready([['password', password ? null : 'validation.passwordRequired']])) download.mutate(password);
  };

  return (
    <main className="page">
      <PageHeader title={t('leave.title')} back fallback={MY_PATHS.safetySetting} />
      <div className="page-body">
        <section className={styles.section} aria-labelledby="leave-export">
          <h2 id="leave-export" className={styles.section__title}>
            {t('leave.exportTitle')}
          </h2>
          <p className={styles.section__text}>{t('leave.exportIntro')}</p>
          <form className="form" onSubmit={onSubmit} noValidate>
            <CurrentPasswordField value={password} invalid={form.invalid('password')} onChange={setPassword} />
            <FormMessage message={form.message(download.error?.message)} />
            <SubmitButton label={t('leave.exportButton')} busyLabel={t('leave.exporting')} busy={download.isPending} blocked={form.blocked} />
          </form>
        </section>
        <section className={styles.section} aria-labelledby="leave-delete">
          <h2 id="leave-delete" className={styles.section__title}>
            {t('leave.deleteTitle')}
          </h2>
          <p className={styles.section__text}>{t('leave.deleteIntro')}</p>
          <Link className="button button--danger button--block" to={SETTING_PATHS.deleteAccount}>
            {t('leave.deleteLink')}
          </Link>
        </section>
      </div>
    </main>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import { TAB_PATHS } from '../../../navigation/paths';
import { EyeOffIcon } from '../../../components/icons/Icons';
import { MenuList, MenuSwitch } from '../../../components/menu/Menu';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';
import { chatErrorText } from '../data/errors';
import { retryAfterDrop } from '../data/queries';
import styles from './PrivacySettingPage.module.css';

const presenceHiddenKey = ['chat', 'presenceHidden'] as const;

/** Privacy: whether others (friends, chat peers) see when one is online or was last seen. */
export function PrivacySettingPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const hidden = useQuery({
    queryKey: presenceHiddenKey,
    queryFn: () => chat.getPresenceHidden(),
    retry: (count, error: Error) => retryAfterDrop(count, error),
  });
  const change = useMutation({
    mutationFn: (next: boolean) => chat.setPresenceHidden(next),
    onSuccess: (_, next) => {
      client.setQueryData(presenceHiddenKey, next);
      showToast(t('chat.privacy.saved'));
    },
    onError: (e) => {
      showToast(chatErrorText(e, t));
    },
  });
  const body = queryBody(hidden, (value) => (
    <>
      <MenuList label={t('chat.privacy.title')}>
        <MenuSwitch
          icon={<EyeOffIcon />}
          label={t('chat.privacy.hidePresence')}
          checked={change.isPending ? change.variables : value}
          disabled={change.isPending}
          onChange={(next) => {
            change.mutate(next);
          }}
        />
      </MenuList>
      <p className={styles['privacy-note']}>{t('chat.privacy.hidePresenceNote')}</p>
    </>
  ));
  return (
    <main className="page">
      <PageHeader title={t('chat.privacy.title')} back fallback={TAB_PATHS.mine} />
      <div className="page-body">{body}</div>
    </main>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { webPushApi, type PushState } from '../../../api/webPush';
import { TAB_PATHS } from '../../../navigation/paths';
import { BellIcon, EyeIcon } from '../../../components/icons/Icons';
import { MenuList, MenuSwitch } from '../../../components/menu/Menu';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';
import { disablePush, enablePush, PushSetupError, pushSupport, setPushPreview, type PushSupport } from './webPush';
import styles from './NotificationSettingPage.module.css';

const pushStateKey = ['push', 'state'] as const;

type Change = { kind: 'enable'; on: boolean } | { kind: 'preview'; on: boolean };

/**
 * Notifications while the app is closed (Web Push): on or off for this device, and whether they
 * show who wrote and what. Which browsers deliver them is said under the switches.
 */
export function NotificationSettingPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [support, setSupport] = useState<PushSupport>(pushSupport);
  const state = useQuery({ queryKey: pushStateKey, queryFn: ({ signal }) => webPushApi.state(signal) });
  const change = useMutation({
    mutationFn: (c: Change): Promise<PushState> => {
      if (c.kind === 'preview') return setPushPreview(c.on);
      return c.on ? enablePush(state.data?.preview ?? true) : disablePush();
    },
    onSuccess: (next) => {
      client.setQueryData(pushStateKey, next);
      showToast(t('pushSettings.saved'));
    },
    onError: (e) => {
      setSupport(pushSupport());
      const reason = e instanceof PushSetupError ? e.reason : null;
      showToast(
        reason === 'denied'
          ? t('pushSettings.denied')
          : reason === 'unsupported'
            ? t('pushSettings.unsupported')
            : reason === 'service'
              ? t('pushSettings.failed')
              : e.message,
      );
    },
  });
  const pending = change.isPending ? change.variables : null;
  const blocked = support !== 'supported';
  const body = queryBody(state, (value) => {
    const enabled = pending?.kind === 'enable' ? pending.on : value.subscribed;
    const preview = pending?.kind === 'preview' ? pending.on : value.preview;
    return (
      <>
        <MenuList label={t('pushSettings.title')}>
          <MenuSwitch
            icon={<BellIcon />}
            label={t('pushSettings.enable')}
            checked={enabled}
            disabled={change.isPending || (blocked && !enabled)}
            onChange={(on) => {
              change.mutate({ kind: 'enable', on });
            }}
          />
          <MenuSwitch
            icon={<EyeIcon />}
            label={t('pushSettings.preview')}
            checked={preview}
            disabled={change.isPending || !enabled}
            onChange={(on) => {
              change.mutate({ kind: 'preview', on });
            }}
          />
        </MenuList>
        {blocked ? (
          <p className={styles['push-warning']} role="status">
            {t(support === 'needsInstall' ? 'pushSettings.needsInstall' : support === 'denied' ? 'pushSettings.denied' : 'pushSettings.unsupported')}
          </p>
        ) : null}
        <p className={styles['push-note']}>{t('pushSettings.previewNote')}</p>
        <p className={styles['push-note']}>{t('pushSettings.browsers')}</p>
      </>
    );
  });
  return (
    <main className="page">
      <PageHeader title={t('pushSettings.title')} back fallback={TAB_PATHS.mine} />
      <div className="page-body">{body}</div>
    </main>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useNavigate } from 'react-router';
import { devicesApi, type Device } from '../../../api/devices';
import { formatDateTime } from '../../../format';
import { LOGIN_PATH, MY_PATHS } from '../../../navigation/paths';
import { Dialog } from '../../../components/dialog/Dialog';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';
import { useAccountActions } from '../session';
import styles from './DevicesPage.module.css';

export const devicesQueryKey = ['account', 'devices'] as const;

/** OpenIM platform ids the server names (httpapi/devices.go). */
const PLATFORMS: Partial<Record<number, 'ios' | 'android' | 'windows' | 'macos' | 'web' | 'linux' | 'androidPad' | 'ipad'>> = {
  1: 'ios',
  2: 'android',
  3: 'windows',
  4: 'macos',
  5: 'web',
  6: 'web',
  7: 'linux',
  8: 'androidPad',
  9: 'ipad',
};

function platformName(platform: number, t: TFunction): string {
  const name = PLATFORMS[platform];
  return name ? t(`devices.platform.${name}`) : t('devices.platform.other', { platform });
}

/** "Chrome · Windows", or the platform's name when the sign-in's browser is unknown. */
function deviceName(device: Device, t: TFunction): string {
  return device.device || platformName(device.platform, t);
}

/**
 * Devices: every live sign-in of the account, newest first, this one marked. Any one can be
 * signed out (this one signs out here and opens the sign-in page), or all but this one at once.
 */
export function DevicesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { signOut } = useAccountActions();
  const [confirmOthers, setConfirmOthers] = useState(false);
  const devices = useQuery({ queryKey: devicesQueryKey, queryFn: devicesApi.list });

  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: devicesQueryKey });
  const signOutOne = useMutation({
    mutationFn: async (device: Device) => {
      if (device.current) {
        await signOut();
        return;
      }
      await devicesApi.signOut(device.id);
    },
    onSuccess: (_, device) => {
      if (device.current) {
        void navigate(LOGIN_PATH, { replace: true });
        return;
      }
      showToast(t('devices.signedOut', { device: deviceName(device, t) }));
      void refresh();
    },
    onError: (error) => {
      showToast(error.message);
      void refresh();
    },
  });
  const signOutOthers = useMutation({
    mutationFn: devicesApi.signOutOthers,
    onSuccess: ({ signedOut }) => {
      setConfirmOthers(false);
      showToast(t('devices.othersSignedOut', { count: signedOut }));
      void refresh();
    },
    onError: (error) => {
      setConfirmOthers(false);
      showToast(error.message);
    },
  });
  const busy = signOutOne.isPending || signOutOthers.isPending;

  const body = queryBody(devices, (list) => {
    const others = list.devices.filter((device) => !device.current).length;
    return (
      <>
        <p className={styles.devices__note}>
          {list.policy === 'devices' ? t('devices.policyDevices', { count: list.maxDevices }) : t('devices.policyPlatform')}
        </p>
        <ul className={styles.devices} aria-label={t('devices.listLabel')}>
          {/* This device first, then the others newest first (the server's order). */}
          {[...list.devices].sort((x, y) => Number(y.current) - Number(x.current)).map((device) => {
            const name = deviceName(device, t);
            return (
              <li key={device.id} className={styles.devices__row} data-testid="device-row" aria-current={device.current ? 'true' : undefined}>
                <span className={styles.devices__text}>
                  <span className={styles.devices__name}>{name}</span>
                  {device.current ? <span className={styles.devices__current}>{t('devices.thisDevice')}</span> : null}
                  <span className={styles.devices__meta}>
                    {t('devices.signedInAt', { platform: platformName(device.platform, t), time: formatDateTime(device.createdAt, t) })}
                  </span>
                </span>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={busy}
                  aria-label={device.current ? t('devices.signOutThis') : t('devices.signOutNamed', { device: name })}
                  onClick={() => {
                    signOutOne.mutate(device);
                  }}
                >
                  {t('devices.signOut')}
                </button>
              </li>
            );
          })}
        </ul>
        <div className="page-actions">
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={busy || others === 0}
            onClick={() => {
              setConfirmOthers(true);
            }}
          >
            {t('devices.signOutOthers')}
          </button>
        </div>
      </>
    );
  });

  return (
    <main className="page">
      <PageHeader title={t('devices.title')} back fallback={MY_PATHS.safetySetting} />
      <div className="page-body">{body}</div>
      <Dialog
        open={confirmOthers}
        title={t('devices.signOutOthersTitle')}
        onClose={
          signOutOthers.isPending
            ? undefined
            : () => {
                setConfirmOthers(false);
              }
        }
        actions={
          <>
            <button
              type="button"
              className="button button--secondary"
              disabled={signOutOthers.isPending}
              onClick={() => {
                setConfirmOthers(false);
              }}
            >
              {t('kit.cancel')}
            </button>
            <button
              type="button"
              className="button"
              disabled={signOutOthers.isPending}
              onClick={() => {
                signOutOthers.mutate();
              }}
            >
              {t('devices.signOutOthersConfirm')}
            </button>
          </>
        }
      >
        <p>{t('devices.signOutOthersText')}</p>
      </Dialog>
    </main>
  );
}

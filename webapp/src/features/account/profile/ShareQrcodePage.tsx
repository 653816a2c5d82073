import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteLinkQuery, useUserInfo } from '../queries';
import { MY_PATHS } from '../../../navigation/paths';
import { copyText } from '../../../components/copy/copyText';
import { CopyButton } from '../../../components/copy/CopyButton';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { QrCode, type QrCodeHandle } from '../../../components/qr-code/QrCode';
import { queryBody } from '../../../components/status/QueryGate';
import { showToast } from '../../../state/toast';
import { composeShareImage } from './shareImage';
import styles from './ShareQrcodePage.module.css';
import { countEvent } from '../../launch/beacon';

/** Share QR code: the invite link (`/user/getUserProUrl`) as a QR code, saved as an image or shared. */
export function ShareQrcodePage() {
  const { t } = useTranslation();
  const link = useQuery(inviteLinkQuery);
  const user = useUserInfo();
  const qr = useRef<QrCodeHandle>(null);
  const [saving, setSaving] = useState(false);

  const save = async (): Promise<void> => {
    const canvas = qr.current?.canvas;
    if (!canvas || !link.data) return;
    setSaving(true);
    try {
      const blob = await composeShareImage(canvas, {
        title: t('share.imageTitle'),
        name: user.data ? user.data.nickName || user.data.username : '',
        code: t('share.inviteCodeValue', { code: link.data.inviteCode }),
        hint: t('share.scanHint'),
      });
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = `invite-${link.data.inviteCode}.png`;
      document.body.appendChild(anchor);
      anchor.click();
      anchor.remove();
      window.setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 10_000);
      showToast(t('share.saved'));
      countEvent('share');
    } catch {
      showToast(t('share.saveFailed'));
    } finally {
      setSaving(false);
    }
  };

  const share = async (): Promise<void> => {
    if (!link.data) return;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('share.imageTitle'), text: t('share.shareText'), url: link.data.url });
        countEvent('share');
        return;
      } catch (error) {
        // The user closed the share sheet: nothing to say.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    showToast((await copyText(link.data.url)) ? t('share.linkCopied') : t('kit.copyFailed'));
  };

  const body = queryBody(link, (data) => {
    return (
      <div className={styles.share}>
        <div className={styles.share__card}>
          <QrCode ref={qr} value={data.url} label={t('share.qrLabel')} size={220} />
          <p className={styles.share__hint}>{t('share.scanHint')}</p>
          <div className={styles.share__code}>
            <span>
              {t('share.inviteCode')} <strong data-testid="invite-code">{data.inviteCode}</strong>
            </span>
            <CopyButton text={data.inviteCode} label={t('share.copyCode')} />
          </div>
          <p className={styles.share__url}>{data.url}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="button button--block" disabled={saving} onClick={() => void save()}>
            {saving ? t('share.saving') : t('share.saveImage')}
          </button>
          <button type="button" className="button button--secondary button--block" onClick={() => void share()}>
            {t('share.shareLink')}
          </button>
        </div>
      </div>
    );
  });

  return (
    <main className="page">
      <PageHeader title={t('mine.shareQrcode')} back fallback={MY_PATHS.editInformation} />
      {body}
    </main>
  );
}

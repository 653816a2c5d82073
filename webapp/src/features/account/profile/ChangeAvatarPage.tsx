import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../../api/accounts';
import { patchUserInfo, useUserInfo } from '../queries';
import type { MessageKey } from '../validation';
import { MY_PATHS } from '../../../navigation/paths';
import { useReturn } from '../../../navigation/useReturn';
import { Avatar } from '../../../components/avatar/Avatar';
import { FormMessage } from '../../../components/form/FormMessage';
import { AlbumIcon, CameraIcon } from '../../../components/icons/Icons';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { fitImage } from './fitImage';
import styles from './ChangeAvatarPage.module.css';

/** What the server takes (httpapi/avatar.go): PNG, JPEG or WebP, at most 5 MB. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Change avatar: take a photo or pick one from the album, preview it, upload it. */
export function ChangeAvatarPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const done = useReturn(MY_PATHS.editInformation);
  const camera = useRef<HTMLInputElement>(null);
  const album = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [problem, setProblem] = useState<MessageKey | null>(null);
  const file = chosen?.file ?? null;
  const preview = chosen?.preview ?? null;

  // The preview's object URL lives as long as it is shown.
  useEffect(() => {
    if (!preview) return undefined;
    return () => {
      URL.revokeObjectURL(preview);
    };
  }, [preview]);

  const upload = useMutation({
    mutationFn: async (picked: File) => {
      // Photos over the server's limit are scaled down here rather than refused.
      let blob: Blob = picked;
      if (picked.size > AVATAR_MAX_BYTES) {
        try {
          blob = await fitImage(picked, 1024);
        } catch {
          throw new Error(t('profile.avatarSize'));
        }
      }
      return accountsApi.uploadAvatar(blob, picked.name || 'avatar');
    },
    onSuccess: ({ avatar }) => {
      patchUserInfo(queryClient, { avatar });
      showToast(t('profile.avatarSaved'));
      done();
    },
  });

  const onPick = (event: ChangeEvent<HTMLInputElement>): void => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (!picked) return;
    upload.reset();
    if (!AVATAR_TYPES.includes(picked.type)) {
      setProblem('profile.avatarType');
      setChosen(null);
      return;
    }
    setProblem(null);
    setChosen({ file: picked, preview: URL.createObjectURL(picked) });
  };

  const name = user.data ? user.data.nickName || user.data.username : '';
  return (
    <main className="page">
      <PageHeader title={t('profile.changeAvatar')} back fallback={MY_PATHS.editInformation} />
      <div className={styles['avatar-page']}>
        <div className={styles['avatar-page__preview']}>
          {preview ? (
            <img className={styles['avatar-page__image']} src={preview} alt={t('profile.avatarPreview')} />
          ) : (
            <Avatar src={user.data?.avatar ?? ''} name={name} size={160} />
          )}
        </div>
        <input
          ref={camera}
          className="visually-hidden"
          type="file"
          accept="image/*"
          capture="user"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          data-testid="avatar-camera"
        />
        <input
          ref={album}
          className="visually-hidden"
          type="file"
          accept={AVATAR_TYPES.join(',')}
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          data-testid="avatar-album"
        />
        <div className={styles['avatar-page__sources']}>
          <button type="button" className="button button--secondary" onClick={() => camera.current?.click()}>
            <CameraIcon />
            <span>{t('profile.takePhoto')}</span>
          </button>
          <button type="button" className="button button--secondary" onClick={() => album.current?.click()}>
            <AlbumIcon />
            <span>{t('profile.chooseFromAlbum')}</span>
          </button>
        </div>
        <FormMessage message={problem ? t(problem) : (upload.error?.message ?? null)} />
        <button
          type="button"
          className="button button--block"
          disabled={!file || upload.isPending}
          onClick={() => {
            if (file) upload.mutate(file);
          }}
        >
          {upload.isPending ? t('profile.uploading') : t('profile.upload')}
        </button>
      </div>
    </main>
  );
}

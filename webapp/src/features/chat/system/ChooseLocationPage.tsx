import { useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { chat } from '../../../api/chat';
import { ContentType } from '../../../api/socket/types';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { useMe, useSelf } from '../data/hooks';
import { targetOf } from '../data/ids';
import { placeholder, sendMessage } from '../data/send';
import './system.css';

type Locating = 'idle' | 'locating' | 'failed';

/**
 * /choose-location?conversationID=: the place to send — the device's position, or typed
 * coordinates — with a description; sending goes back to the conversation.
 */
export function ChooseLocationPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: self } = useSelf();
  const [params] = useSearchParams();
  const target = targetOf(params.get('conversationID') ?? '', me);
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [description, setDescription] = useState('');
  const [locating, setLocating] = useState<Locating>('idle');
  const [invalid, setInvalid] = useState(false);

  if (!target) {
    return <MissingPage title={t('chat.location.choose')} message={t('chat.conversation.notFound')} />;
  }

  const locate = (): void => {
    if (!('geolocation' in navigator)) {
      setLocating('failed');
      return;
    }
    setLocating('locating');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLatitude(position.coords.latitude.toFixed(6));
        setLongitude(position.coords.longitude.toFixed(6));
        setLocating('idle');
      },
      () => {
        setLocating('failed');
      },
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  };

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const lat = Number(latitude);
    const lon = Number(longitude);
    const ok = latitude.trim() !== '' && longitude.trim() !== '' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
    setInvalid(!ok);
    if (!ok) return;
    const desc = description.trim();
    const stand = placeholder({ userID: me, nickname: self?.nickname ?? '', faceURL: self?.faceURL ?? '' }, target, {
      contentType: ContentType.location,
      locationElem: { description: desc, latitude: lat, longitude: lon },
    });
    void sendMessage(client, target, stand, () => chat.createLocationMessage(desc, lon, lat), t);
    void navigate(-1);
  };

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.location.choose')} back />
      <form className="chat-page__scroll" onSubmit={onSubmit} noValidate>
        <div className="chat-actions">
          <button type="button" className="button button--block button--secondary" onClick={locate} disabled={locating === 'locating'}>
            {locating === 'locating' ? t('chat.location.locating') : t('chat.location.useMine')}
          </button>
          {locating === 'failed' ? <p className="chat-form-error">{t('chat.location.permission')}</p> : null}
        </div>
        <label className="chat-field">
          <span className="chat-field__label">{t('chat.location.latitude')}</span>
          <input className="chat-input" inputMode="decimal" name="latitude" value={latitude} aria-invalid={invalid} onChange={(e) => { setLatitude(e.target.value); }} />
        </label>
        <label className="chat-field">
          <span className="chat-field__label">{t('chat.location.longitude')}</span>
          <input className="chat-input" inputMode="decimal" name="longitude" value={longitude} aria-invalid={invalid} onChange={(e) => { setLongitude(e.target.value); }} />
        </label>
        <label className="chat-field">
          <span className="chat-field__label">{t('chat.location.description')}</span>
          <input className="chat-input" name="description" maxLength={200} value={description} onChange={(e) => { setDescription(e.target.value); }} />
        </label>
        <p className="chat-form-error" role="alert">
          {invalid ? t('chat.location.invalid') : ''}
        </p>
        <div className="chat-actions">
          <button type="submit" className="button button--block">
            {t('chat.location.send')}
          </button>
        </div>
      </form>
    </main>
  );
}

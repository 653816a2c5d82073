import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SoundElem } from '../../../../api/socket/types';
import { useAttachmentUrl } from '../../../../components/hooks/useAttachmentUrl';
import { PauseIcon, PlayIcon } from '../../../../components/icons/Icons';
import { formatClock } from '../media';

/** Only one voice message plays at a time. */
let playing: HTMLAudioElement | null = null;

export function VoiceContent({ elem }: { elem: SoundElem }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement | null>(null);
  const [isPlaying, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  const source = useAttachmentUrl(elem.sourceUrl);

  useEffect(
    () => () => {
      audio.current?.pause();
    },
    [],
  );

  const toggle = (): void => {
    if (audio.current && source && audio.current.src !== new URL(source, window.location.href).href && audio.current.paused) {
      audio.current = null; // the signed link was renewed
    }
    if (!audio.current) {
      if (!source) return;
      const el = new Audio(source);
      el.onended = () => {
        setPlaying(false);
      };
      el.onpause = () => {
        setPlaying(false);
      };
      el.onplay = () => {
        setPlaying(true);
      };
      el.onerror = () => {
        setFailed(true);
        setPlaying(false);
      };
      audio.current = el;
    }
    const el = audio.current;
    if (!el.paused) {
      el.pause();
      return;
    }
    if (playing && playing !== el) playing.pause();
    playing = el;
    el.currentTime = 0;
    el.play().catch(() => {
      setFailed(true);
    });
  };

  const width = Math.min(200, 70 + elem.duration * 4);
  return (
    <button
      type="button"
      className="msg-voice"
      style={{ width }}
      onClick={toggle}
      aria-label={isPlaying ? t('chat.message.pauseVoice') : t('chat.message.playVoice', { duration: formatClock(elem.duration) })}
    >
      {isPlaying ? <PauseIcon /> : <PlayIcon />}
      <span>{failed ? t('chat.message.voiceFailed') : `${elem.duration}″`}</span>
    </button>
  );
}

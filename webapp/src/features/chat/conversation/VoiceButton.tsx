import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../state/toast';

/** Shorter recordings are refused with 'recording too short'. */
export const MIN_RECORDING_MS = 1_000;
/** Sliding this far up while holding cancels the recording. */
const CANCEL_PX = 60;

interface VoiceButtonProps {
  onRecorded: (blob: Blob, seconds: number) => void;
  disabled?: boolean;
}

type Phase = 'idle' | 'recording' | 'cancelling';

function pickMimeType(): string {
  const types = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
  if (typeof MediaRecorder === 'undefined') return '';
  return types.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** Hold to talk: records from the microphone while pressed; release sends, slide up cancels. */
export function VoiceButton({ onRecorded, disabled = false }: VoiceButtonProps) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>('idle');
  const recorder = useRef<MediaRecorder | null>(null);
  const startedAt = useRef(0);
  const startY = useRef(0);
  const cancelled = useRef(false);
  const held = useRef(false);
  /** Read after an await: the pointer may have been released meanwhile. */
  const isHeld = (): boolean => held.current;

  // Leaving the page mid-recording discards it and frees the microphone.
  useEffect(
    () => () => {
      held.current = false;
      cancelled.current = true;
      const rec = recorder.current;
      if (rec && rec.state !== 'inactive') rec.stop();
    },
    [],
  );

  const start = async (event: PointerEvent<HTMLButtonElement>): Promise<void> => {
    if (disabled || phase !== 'idle') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    held.current = true;
    cancelled.current = false;
    startY.current = event.clientY;
    let stream: MediaStream;
    try {
      // mediaDevices is missing outside secure contexts; MediaRecorder on old browsers.
      const devices = navigator.mediaDevices as MediaDevices | undefined;
      if (typeof MediaRecorder === 'undefined' || !devices) throw new Error('unsupported');
      stream = await devices.getUserMedia({ audio: true });
    } catch {
      held.current = false;
      showToast(t('chat.voice.permission'));
      return;
    }
    if (!isHeld()) {
      // Released before the microphone opened: far too short.
      for (const track of stream.getTracks()) track.stop();
      showToast(t('chat.voice.tooShort'));
      return;
    }
    const mimeType = pickMimeType();
    const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      const elapsed = Date.now() - startedAt.current;
      if (cancelled.current) return;
      if (elapsed < MIN_RECORDING_MS || chunks.length === 0) {
        showToast(t('chat.voice.tooShort'));
        return;
      }
      onRecorded(new Blob(chunks, { type: rec.mimeType || 'audio/webm' }), elapsed / 1000);
    };
    rec.onerror = () => {
      showToast(t('chat.voice.failed'));
    };
    recorder.current = rec;
    startedAt.current = Date.now();
    rec.start();
    setPhase('recording');
  };

  const stop = (): void => {
    held.current = false;
    const rec = recorder.current;
    recorder.current = null;
    setPhase('idle');
    if (rec && rec.state !== 'inactive') rec.stop();
  };

  let label = t('chat.voice.hold');
  if (phase === 'recording') label = t('chat.voice.release');
  if (phase === 'cancelling') label = t('chat.voice.releaseToCancel');

  return (
    <>
      <button
        type="button"
        className={phase === 'idle' ? 'voice-button' : 'voice-button voice-button--active'}
        disabled={disabled}
        onPointerDown={(e) => void start(e)}
        onPointerMove={(e) => {
          if (phase === 'idle') return;
          const cancelling = startY.current - e.clientY > CANCEL_PX;
          cancelled.current = cancelling;
          setPhase(cancelling ? 'cancelling' : 'recording');
        }}
        onPointerUp={stop}
        onPointerCancel={() => {
          cancelled.current = true;
          stop();
        }}
        onContextMenu={(e) => {
          e.preventDefault();
        }}
      >
        {label}
      </button>
      {phase !== 'idle' ? (
        <div className={phase === 'cancelling' ? 'voice-overlay voice-overlay--cancel' : 'voice-overlay'} role="status">
          {phase === 'cancelling' ? t('chat.voice.releaseToCancel') : t('chat.voice.recording')}
        </div>
      ) : null}
    </>
  );
}

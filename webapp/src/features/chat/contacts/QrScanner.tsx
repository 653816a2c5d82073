import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { decodeFile, decodeFrame } from './qr';
import './QrScanner.css';

interface QrScannerProps {
  onResult: (text: string) => void;
  onClose: () => void;
}

const SCAN_EVERY_MS = 250;

/** Full-screen camera scanner (rear camera), with a picture from the album as the other way in. */
export function QrScanner({ onResult, onClose }: QrScannerProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const album = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const done = useRef(false);
  const result = useRef(onResult);

  useEffect(() => {
    result.current = onResult;
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer = 0;
    // An object, so the checks after each await see the cleanup's change.
    const life = { stopped: false };
    const over = (): boolean => life.stopped || done.current;
    const scan = async (): Promise<void> => {
      const el = video.current;
      if (over() || !el) return;
      if (el.readyState >= 2) {
        const text = await decodeFrame(el, el.videoWidth, el.videoHeight).catch(() => null);
        if (text && !over()) {
          done.current = true;
          result.current(text);
          return;
        }
      }
      timer = window.setTimeout(() => void scan(), SCAN_EVERY_MS);
    };
    const start = async (): Promise<void> => {
      try {
        // mediaDevices is missing outside secure contexts (plain http on a LAN address).
        const devices = navigator.mediaDevices as MediaDevices | undefined;
        if (!devices) throw new Error('no camera');
        stream = await devices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch {
        if (!life.stopped) setProblem(t('chat.scan.cameraPermission'));
        return;
      }
      if (life.stopped) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      const el = video.current;
      if (!el) return;
      el.srcObject = stream;
      await el.play().catch(() => undefined);
      void scan();
    };
    void start();
    return () => {
      life.stopped = true;
      window.clearTimeout(timer);
      if (stream) for (const track of stream.getTracks()) track.stop();
    };
  }, [t]);

  const fromAlbum = async (file: File): Promise<void> => {
    const text = await decodeFile(file).catch(() => null);
    if (text) {
      done.current = true;
      onResult(text);
    } else {
      setProblem(t('chat.scan.notFound'));
    }
  };

  return createPortal(
    <div className="qr-scanner" role="dialog" aria-modal="true" aria-label={t('chat.scan.title')}>
      <video ref={video} className="qr-scanner__video" muted playsInline aria-hidden="true" />
      <div className="qr-scanner__frame" aria-hidden="true" />
      <p className="qr-scanner__hint" role="status">
        {problem ?? t('chat.scan.hint')}
      </p>
      <div className="qr-scanner__buttons">
        <button type="button" className="button button--secondary" onClick={() => album.current?.click()}>
          {t('chat.scan.album')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('chat.close')}
        </button>
      </div>
      <input
        ref={album}
        type="file"
        accept="image/*"
        hidden
        data-testid="scan-album"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void fromAlbum(file);
        }}
      />
    </div>,
    document.body,
  );
}

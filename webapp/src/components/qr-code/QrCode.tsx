import QRCode from 'qrcode';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import './QrCode.css';

interface QrCodeProps {
  value: string;
  /** What the code holds, for screen readers. */
  label: string;
  size?: number;
}

export interface QrCodeHandle {
  canvas: HTMLCanvasElement | null;
}

/**
 * A QR code drawn on a canvas by the `qrcode` library (error correction M, quiet zone of 2
 * modules), dark on white in either colour scheme so every scanner reads it.
 */
export const QrCode = forwardRef<QrCodeHandle, QrCodeProps>(function QrCode({ value, label, size = 200 }, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useImperativeHandle(ref, () => ({
    get canvas() {
      return canvas.current;
    },
  }));

  useEffect(() => {
    const element = canvas.current;
    if (!element || !value) return;
    let cancelled = false;
    QRCode.toCanvas(element, value, {
      errorCorrectionLevel: 'M',
      margin: 2,
      width: size * 2,
      color: { dark: '#000000', light: '#ffffff' },
    }).then(
      () => {
        if (!cancelled) {
          element.style.width = `${size}px`;
          element.style.height = `${size}px`;
          setFailed(false);
        }
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [value, size]);

  return (
    <canvas
      ref={canvas}
      className="qr-code"
      role="img"
      aria-label={label}
      data-value={value}
      data-failed={failed || undefined}
      width={size * 2}
      height={size * 2}
      style={{ width: size, height: size }}
    />
  );
});

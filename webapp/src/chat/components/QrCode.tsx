import { useMemo } from 'react';
import { encode } from 'uqr';

interface QrCodeProps {
  text: string;
  size?: number;
  label: string;
}

/** A QR code of `text` as SVG (uqr encodes, React draws: no HTML strings). */
export function QrCode({ text, size = 200, label }: QrCodeProps) {
  const path = useMemo(() => {
    const { data, size: n } = encode(text, { border: 2 });
    let d = '';
    data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { d, n };
  }, [text]);
  return (
    <svg
      className="chat-qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${path.n} ${path.n}`}
      shapeRendering="crispEdges"
    >
      <rect width={path.n} height={path.n} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}

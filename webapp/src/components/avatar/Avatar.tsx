import { useState } from 'react';
import { assetUrl } from '../../api/assets';
import './Avatar.css';

interface AvatarProps {
  src: string;
  /** Whose avatar it is (the alt text); its first letter is shown when there is no image. */
  name: string;
  size?: number;
}

export function Avatar({ src, name, size = 56 }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = assetUrl(src);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (!url || failed === url) {
    return (
      <span className="avatar avatar--initial" style={style} role="img" aria-label={name}>
        {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={url}
      alt={name}
      width={size}
      height={size}
      style={style}
      onError={() => {
        setFailed(url);
      }}
    />
  );
}

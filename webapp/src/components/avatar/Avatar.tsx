import { useState } from 'react';
import { assetUrl } from '../../api/assets';
import styles from './Avatar.module.css';

interface AvatarProps {
  /** Whose avatar it is; its first letter is shown when there is no image (or it fails to load). */
  name: string;
  /** A path the server names (`/files/avatars/...`) or a full address. */
  src?: string | undefined;
  size: number;
  /** Groups get rounded squares, people circles. */
  square?: boolean;
  /**
   * The name is shown beside it (lists, chat): hidden from screen readers, and the initial
   * sits on a colour picked from the name so that rows tell apart at a glance.
   */
  decorative?: boolean;
}

const COLOURS = ['#315aff', '#12a150', '#e5484d', '#f59e0b', '#8e4ec6', '#0091ff', '#d6409f', '#00a2c7'];

function colourOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return COLOURS[hash % COLOURS.length] ?? '#315aff';
}

function initialOf(name: string): string {
  const first = new Intl.Segmenter().segment(name.trim() || '?')[Symbol.iterator]().next().value;
  return first ? first.segment.toUpperCase() : '?';
}

/** The one avatar of the app: a picture, or the first letter of the name. */
export function Avatar({ name, src = '', size, square = false, decorative = false }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = assetUrl(src);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  const className = [styles.avatar, square ? styles.square : '', decorative ? styles.decorative : ''].filter(Boolean).join(' ');
  if (!url || failed === url) {
    return decorative ? (
      <span className={className} style={{ ...style, background: colourOf(name) }} aria-hidden="true">
        {initialOf(name)}
      </span>
    ) : (
      <span className={`${className} ${styles.initial}`} style={style} role="img" aria-label={name}>
        {initialOf(name)}
      </span>
    );
  }
  return (
    <img
      className={className}
      src={url}
      alt={decorative ? '' : name}
      aria-hidden={decorative ? true : undefined}
      loading={decorative ? 'lazy' : undefined}
      width={size}
      height={size}
      style={style}
      onError={() => {
        setFailed(url);
      }}
    />
  );
}

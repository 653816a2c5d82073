import { useState } from 'react';
import './components.css';

interface AvatarProps {
  name: string;
  url?: string;
  size?: number;
  /** Groups get rounded squares, people circles. */
  square?: boolean;
}

const COLOURS = ['#315aff', '#12a150', '#e5484d', '#f59e0b', '#8e4ec6', '#0091ff', '#d6409f', '#00a2c7'];

function colourOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return COLOURS[hash % COLOURS.length] ?? COLOURS[0] ?? '#315aff';
}

/** A face picture, or the first letter of the name on a colour of its own. Decorative: the name is shown beside it. */
export function Avatar({ name, url, size = 44, square = false }: AvatarProps) {
  const [broken, setBroken] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  const className = square ? 'chat-avatar chat-avatar--square' : 'chat-avatar';
  if (url && !broken) {
    return (
      <img
        className={className}
        style={style}
        src={url}
        alt=""
        aria-hidden="true"
        loading="lazy"
        onError={() => {
          setBroken(true);
        }}
      />
    );
  }
  const first = new Intl.Segmenter().segment(name.trim() || '?')[Symbol.iterator]().next().value;
  const letter = first ? first.segment.toUpperCase() : '?';
  return (
    <span className={className} style={{ ...style, background: colourOf(name) }} aria-hidden="true">
      {letter}
    </span>
  );
}

import type { FaceElem } from '../../../../api/socket/types';

/** The built-in stickers: a face message carries the index and the sticker itself as data. */
export const FACES = [
  '😀', '😂', '🥰', '😎', '🤔', '😭', '😡', '👍', '👏', '🙏', '🎉', '❤️',
  '🔥', '🌹', '💯', '😴', '🤝', '👌', '😱', '🤣', '😘', '🥳', '💪', '🍻',
] as const;

export function faceOf(elem: FaceElem): string {
  const fromSet = elem.index >= 0 ? FACES[elem.index] : undefined;
  if (fromSet) return fromSet;
  try {
    const parsed = JSON.parse(elem.data) as { emoji?: unknown };
    if (typeof parsed.emoji === 'string') return parsed.emoji;
  } catch {
    // data is not ours: show it as it is
  }
  return elem.data.slice(0, 16);
}

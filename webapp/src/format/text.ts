/**
 * Characters that do not show as themselves: the C0 controls and DEL (a URL parser drops tabs
 * and newlines, so `/\t/host` reads as `//host`) and the bidirectional embeddings, overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069) that make a text read differently from what it is.
 */
export function isHiddenChar(code: number): boolean {
  return code < 0x20 || code === 0x7f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

export function hasHiddenChars(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    if (isHiddenChar(text.charCodeAt(i))) return true;
  }
  return false;
}

/** `text` without its hidden characters, except line breaks and tabs. */
export function stripHiddenChars(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x09 || !isHiddenChar(code)) out += text.charAt(i);
  }
  return out;
}

/** At most `limit` user-perceived characters (graphemes), the last one an ellipsis when cut. */
export function truncateText(text: string, limit: number): string {
  const graphemes = Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);
  return graphemes.length > limit ? `${graphemes.slice(0, Math.max(limit - 1, 0)).join('')}…` : text;
}

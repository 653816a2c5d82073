/** Splits text into plain runs and http(s) links; nothing else becomes a link (no javascript:). */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}'"，。；：！？）】]+$/;

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let url = match[0];
    const trailing = TRAILING.exec(url);
    if (trailing) url = url.slice(0, url.length - trailing[0].length);
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    let href = '';
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') href = parsed.href;
    } catch {
      href = '';
    }
    parts.push(href ? { kind: 'link', text: url, href } : { kind: 'text', text: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

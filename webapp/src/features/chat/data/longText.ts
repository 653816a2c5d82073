/**
 * When a text message is shown folded, with "Read more": past this many characters or lines a
 * bubble would fill more than a phone's screen (about 10 lines of 15 px text at 390 px is 250
 * characters of Chinese or 450 of English), and scrolling past it to read on is a chore.
 */
export const LONG_TEXT_CHARS = 500;
export const LONG_TEXT_LINES = 12;

/** True when the text is folded to its first lines until the reader asks for the rest. */
export function isLongText(text: string): boolean {
  if (text.length > LONG_TEXT_CHARS) return true;
  let lines = 1;
  for (const ch of text) {
    if (ch === '\n') {
      lines += 1;
      if (lines > LONG_TEXT_LINES) return true;
    }
  }
  return false;
}

import { linkify } from './linkify';
import { LongText } from './LongText';

/** Text as text (React escapes it), with http(s) links opening in a new tab; a long one folded. */
export function TextContent({ text }: { text: string }) {
  return (
    <LongText text={text}>
      <p className="msg-text">
        {linkify(text).map((part, i) =>
          part.kind === 'link' ? (
            <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
              {part.text}
            </a>
          ) : (
            <span key={i}>{part.text}</span>
          ),
        )}
      </p>
    </LongText>
  );
}

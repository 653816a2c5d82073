import type { ReactNode } from 'react';
import { Link } from 'react-router';
import '../kit.css';

interface ListRowProps {
  title: ReactNode;
  subtitle?: ReactNode;
  left?: ReactNode;
  right?: ReactNode;
  /** A link row; otherwise a button row when onClick is given, else plain. */
  to?: string;
  onClick?: () => void;
  label?: string;
}

/** One row of a chat list: leading avatar or icon, title and subtitle, trailing content. */
export function ListRow({ title, subtitle, left, right, to, onClick, label }: ListRowProps) {
  const body = (
    <>
      {left ? <span className="chat-row__left">{left}</span> : null}
      <span className="chat-row__main">
        <span className="chat-row__title">{title}</span>
        {subtitle ? <span className="chat-row__subtitle">{subtitle}</span> : null}
      </span>
      {right ? <span className="chat-row__right">{right}</span> : null}
    </>
  );
  if (to) {
    return (
      <Link className="chat-row chat-row--action" to={to} aria-label={label}>
        {body}
      </Link>
    );
  }
  if (onClick) {
    return (
      <button type="button" className="chat-row chat-row--action" onClick={onClick} aria-label={label}>
        {body}
      </button>
    );
  }
  return <div className="chat-row">{body}</div>;
}

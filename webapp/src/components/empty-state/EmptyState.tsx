import type { ReactNode } from 'react';
import './EmptyState.css';

interface EmptyStateProps {
  title: string;
  text?: string;
  children?: ReactNode;
  /** `empty` (an empty inbox, the default) or `success` (a check in a circle, in the success colour). */
  icon?: 'empty' | 'success';
}

export function EmptyState({ title, text, children, icon = 'empty' }: EmptyStateProps) {
  return (
    <section className="empty-state">
      {icon === 'success' ? (
        <svg className="empty-state__icon empty-state__icon--success" data-icon="success" viewBox="0 0 64 64" width="64" height="64" aria-hidden="true" focusable="false">
          <circle cx="32" cy="32" r="24" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M21 33l8 8 15-17" fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : (
        <svg className="empty-state__icon" data-icon="empty" viewBox="0 0 64 64" width="64" height="64" aria-hidden="true" focusable="false">
          <rect x="10" y="16" width="44" height="34" rx="6" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M10 30h14l4 6h8l4-6h14" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
        </svg>
      )}
      <h2 className="empty-state__title">{title}</h2>
      {text ? <p className="empty-state__text">{text}</p> : null}
      {children}
    </section>
  );
}

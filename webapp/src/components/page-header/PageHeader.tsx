import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import './PageHeader.css';

interface PageHeaderProps {
  title: string;
  /** Shows a back button; goes back in history, or to `fallback` when there is none. */
  back?: boolean;
  fallback?: string;
  /** A button on the right (several list pages have one). */
  action?: ReactNode;
}

export function PageHeader({ title, back = false, fallback = '/', action }: PageHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = (): void => {
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  };
  return (
    <header className={action ? 'page-header page-header--with-action' : 'page-header'}>
      {back ? (
        <button type="button" className="icon-button page-header__back" onClick={goBack} aria-label={t('common.back')}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path d="M15 5 8 12l7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      ) : null}
      <h1 className="page-header__title">{title}</h1>
      {action ? <div className="page-header__action">{action}</div> : null}
    </header>
  );
}

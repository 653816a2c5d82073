/** Small building blocks every console screen uses. */
import { useAtomValue } from 'jotai';
import { useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { useT } from '../i18n/useT';
import css from './ui.module.css';
import { toastAtom, showToast } from './toast';

type Variant = 'default' | 'primary' | 'danger';

export function Button({
  variant = 'default',
  small,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; small?: boolean }) {
  const cls = [css.button, variant === 'primary' && css.primary, variant === 'danger' && css.danger, small && css.small, className]
    .filter(Boolean)
    .join(' ');
  return <button type="button" className={cls} {...rest} />;
}

export function Card({ title, actions, children, className }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={[css.card, className].filter(Boolean).join(' ')}>
      {(title ?? actions) && (
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
          {title ? <h2 className={css.cardTitle}>{title}</h2> : <span />}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/**
 * A list screen's keyword search: the trimmed keyword is searched on submit. Filters (children)
 * sit between the box and the button; `after` follows the button.
 */
export function SearchForm({
  hint,
  onSearch,
  children,
  after,
  initial = '',
}: {
  hint: string;
  onSearch: (keyword: string) => void;
  children?: ReactNode;
  after?: ReactNode;
  /** The keyword already searched (e.g. from a link). */
  initial?: string;
}) {
  const { t } = useT();
  const [keyword, setKeyword] = useState(initial);
  return (
    <form
      className={css.toolbar}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(keyword.trim());
      }}
    >
      <input
        className={css.input}
        placeholder={hint}
        aria-label={hint}
        value={keyword}
        onChange={(e) => { setKeyword(e.target.value); }}
      />
      {children}
      <button className={css.button} type="submit">
        {t('common.search')}
      </button>
      {after}
    </form>
  );
}

/** The console's language picker (the sign-in page and the header both offer it). */
export function LanguageSelect({ className }: { className?: string }) {
  const { t, lang } = useT();
  return (
    <select className={className} value={lang} aria-label={t('common.language')} onChange={(e) => { setLanguage(e.target.value as Language); }}>
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
          {l.label}
        </option>
      ))}
    </select>
  );
}

export function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <label className={css.field}>
      <span>{label}</span>
      {children}
    </label>
  );
}

export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}

/** Reports a failed action the way every screen does: a red toast with the server's message. */
export function useFailToast(): (error: unknown) => void {
  const { t } = useT();
  return (error) => {
    showToast(errorText(error, t('common.failed')), true);
  };
}

export function Toasts() {
  const toast = useAtomValue(toastAtom);
  if (!toast) return null;
  return (
    <div role="status" className={[css.toast, toast.error && css.toastError].filter(Boolean).join(' ')}>
      {toast.text}
    </div>
  );
}

export interface ConfirmOptions {
  title: string;
  message?: ReactNode;
  /** Ask for a reason; `true` makes it required. */
  reason?: boolean | 'optional';
  confirmLabel?: string;
  danger?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
}

/**
 * A button that opens a confirmation dialog; money, membership and rules changes all go
 * through it. The dialog stays open with the error when the server refuses.
 */
export function ConfirmButton({
  label,
  variant,
  small,
  disabled,
  options,
  testId,
}: {
  label: string;
  variant?: Variant;
  small?: boolean;
  disabled?: boolean;
  options: ConfirmOptions;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} small={small} disabled={disabled} onClick={() => { setOpen(true); }} data-testid={testId}>
        {label}
      </Button>
      {open && <ConfirmDialog {...options} onClose={() => { setOpen(false); }} />}
    </>
  );
}

export function ConfirmDialog({ title, message, reason, confirmLabel, danger, onConfirm, onClose }: ConfirmOptions & { onClose: () => void }) {
  const { t } = useT();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const required = reason === true;
  const submit = async () => {
    if (required && !text.trim()) {
      setError(t('common.reasonRequired'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      await onConfirm(text.trim());
      onClose();
    } catch (e) {
      setError(errorText(e, t('common.failed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={css.overlay} onClick={busy ? undefined : onClose}>
      <div className={css.dialog} role="dialog" aria-modal="true" aria-label={title} onClick={(e) => { e.stopPropagation(); }}>
        <h2>{title}</h2>
        {message && <div>{message}</div>}
        {reason && (
          <Field label={required ? t('common.reason') : t('common.reasonOptional')}>
            <textarea className={css.textarea} value={text} maxLength={200} onChange={(e) => { setText(e.target.value); }} autoFocus />
          </Field>
        )}
        {error && (
          <p className={css.error} role="alert">
            {error}
          </p>
        )}
        <div className={css.dialogActions}>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={() => void submit()} disabled={busy} data-testid="confirm-ok">
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </div>
      </div>
    </div>
  );
}

export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (p: number) => void }) {
  const { t } = useT();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className={css.pager}>
      <span>{t('common.total', { count: total })}</span>
      <Button small disabled={page <= 1} onClick={() => { onPage(page - 1); }}>
        ‹
      </Button>
      <span>
        {page} / {pages}
      </span>
      <Button small disabled={page >= pages} onClick={() => { onPage(page + 1); }}>
        ›
      </Button>
    </div>
  );
}

export function CopyButton({ text }: { text: string }) {
  const { t } = useT();
  return (
    <Button
      small
      onClick={() => {
        void navigator.clipboard.writeText(text).then(
          () => { showToast(t('common.copied')); },
          () => { showToast(t('common.copyFailed'), true); },
        );
      }}
    >
      {t('common.copy')}
    </Button>
  );
}

export function Tabs<T extends string>({ value, options, onChange }: { value: T; options: { value: T; label: string }[]; onChange: (v: T) => void }) {
  return (
    <div className={css.tabs} role="tablist">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          className={[css.tab, o.value === value && css.tabActive].filter(Boolean).join(' ')}
          onClick={() => { onChange(o.value); }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className={css.empty}>{children}</div>;
}

/** Order status 0 under review, 1 completed, 2 failed. */
export function OrderStatus({ status }: { status: number }) {
  const { t } = useT();
  const cls = status === 0 ? css.badgeWarn : status === 1 ? css.badgeOk : css.badgeDanger;
  const label = status === 0 ? t('orders.status0') : status === 1 ? t('orders.status1') : t('orders.status2');
  return <span className={[css.badge, cls].join(' ')}>{label}</span>;
}

export { css as ui };

/** A table column: its heading, or its heading and `num` for a right-aligned number column. */
export type Column = string | { label: string; num: true };

/** The console's table: a heading row from `columns`, and `children` (the `<tr>` rows) as its body. */
export function DataTable({ columns, children }: { columns: readonly Column[]; children: ReactNode }) {
  return (
    <table className={css.table}>
      <thead>
        <tr>
          {columns.map((c, i) =>
            typeof c === 'string' ? (
              <th key={i}>{c || null}</th>
            ) : (
              <th key={i} className={css.num}>
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * One page of a list query as every list screen shows it: a load error, "nothing here", or the
 * table with a row for each item.
 */
export function ListTable<T>({
  query,
  columns,
  row,
}: {
  query: { isError: boolean; data?: { list: readonly T[] } };
  columns: readonly Column[];
  row: (item: T) => ReactNode;
}) {
  const { t } = useT();
  const list = query.data?.list;
  return (
    <>
      {query.isError && <p className={css.error}>{t('common.loadFailed')}</p>}
      {list?.length === 0 && <Empty>{t('common.empty')}</Empty>}
      {list?.length ? <DataTable columns={columns}>{list.map(row)}</DataTable> : null}
    </>
  );
}

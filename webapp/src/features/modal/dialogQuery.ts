import { appPath, DIALOG_PATHS } from '../../navigation/paths';
import { stripHiddenChars, truncateText } from '../../format/text';

/**
 * What the dialog pages show, read from their query (/pages/modal/modal?title=&content=&...).
 * Empty texts fall back to the page's defaults from i18n; every text is shown as text.
 */
export interface DialogQuery {
  title: string;
  content: string;
  confirmText: string;
  cancelText: string;
  /** With a cancel button; the dialog is also closable (Escape, backdrop) only then. */
  showCancel: boolean;
  /** The app page confirm opens, or null: confirm goes back. */
  url: string | null;
}

export type DialogKind = 'modal' | 'notice';

/** Longest texts shown (in characters); anything longer is cut with an ellipsis. */
export const DIALOG_TEXT_LIMITS = { title: 64, content: 1000, button: 16 } as const;

function cleanText(raw: string | null, limit: number): string {
  return truncateText(stripHiddenChars((raw ?? '').replace(/\r\n?/g, '\n')).trim(), limit);
}

/** `showCancel` is on unless the query says false, 0 or no. */
function readShowCancel(raw: string | null): boolean {
  return !['false', '0', 'no'].includes((raw ?? '').trim().toLowerCase());
}

/**
 * The dialog a query asks for. A `notice` (modal_n) has only the confirm button whatever the
 * query says. `url` is kept only when it is a path of this app (never a full URL, `//host` or
 * `javascript:`).
 */
export function parseDialogQuery(params: URLSearchParams, kind: DialogKind = 'modal'): DialogQuery {
  const showCancel = kind === 'modal' && readShowCancel(params.get('showCancel'));
  return {
    title: cleanText(params.get('title'), DIALOG_TEXT_LIMITS.title),
    content: cleanText(params.get('content'), DIALOG_TEXT_LIMITS.content),
    confirmText: cleanText(params.get('confirmText'), DIALOG_TEXT_LIMITS.button),
    cancelText: showCancel ? cleanText(params.get('cancelText'), DIALOG_TEXT_LIMITS.button) : '',
    showCancel,
    url: appPath(params.get('url')?.trim()),
  };
}

/** The query of a dialog page (the inverse of parseDialogQuery for the fields given). */
export function dialogPath(kind: DialogKind, query: Partial<Omit<DialogQuery, 'showCancel'>> & { showCancel?: boolean }): string {
  const params = new URLSearchParams();
  for (const key of ['title', 'content', 'confirmText', 'cancelText', 'url'] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  if (query.showCancel === false) params.set('showCancel', 'false');
  const search = params.toString();
  const path = kind === 'modal' ? DIALOG_PATHS.modal : DIALOG_PATHS.notice;
  return search ? `${path}?${search}` : path;
}

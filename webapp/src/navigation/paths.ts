import type { CustomerAbout } from '../api/customer';
import { hasHiddenChars } from '../format/text';

/** Route paths shared by the router, the guard and the API module. */
export const HOME_PATH = '/';
export const LOGIN_PATH = '/pages/auth/login';

export const TAB_PATHS = {
  chat: '/pages/tabBar/chat',
  find: '/pages/tabBar/find',
  mine: '/pages/tabBar/mine',
  city: '/pages/tabBar/city',
  love: '/pages/tabBar/love',
} as const;

export const LANGUAGE_SETTING_PATH = '/pages/my/language-setting';

/** The mine area's pages ("My"). */
export const MY_PATHS = {
  editInformation: '/pages/my/edit-information',
  shareQrcode: '/pages/my/share-qrcode',
  switchAccount: '/pages/my/switch-account',
  editNickName: '/pages/my/edit-nick-name',
  clickRecord: '/pages/my/click-record',
  pointsDetails: '/pages/my/points-details',
  exchangeRecord: '/pages/my/exchange-record',
  safetySetting: '/pages/my/safety-setting',
  privacySetting: '/pages/my/privacy-setting',
  languageSetting: LANGUAGE_SETTING_PATH,
  notice: '/pages/my/notice',
  changeAvatar: '/pages/my/change-avatar',
  exchange: '/pages/my/exchange',
  recharge: '/pages/my/recharge',
} as const;

/** The settings pages ("Setting"). */
export const SETTING_PATHS = {
  modifyPassword: '/pages/setting/modify-password',
  devices: '/pages/setting/devices',
  fundPassword: '/pages/setting/fund-password',
  changeFundPassword: '/pages/setting/change-fund-password',
  phoneNumber: '/pages/setting/phone-number',
  addBank: '/pages/setting/add-bank',
  nickName: '/pages/setting/nick-name',
  bankManagement: '/pages/setting/bank-management',
  accountData: '/pages/setting/account-data',
  deleteAccount: '/pages/setting/delete-account',
  notifications: '/pages/setting/notifications',
  responsiblePlay: '/pages/setting/responsible-play',
} as const;

/** `path` with a `redirect` back to `to` once its form is done. */
export function withRedirect(path: string, to: string): string {
  return `${path}?redirect=${encodeURIComponent(to)}`;
}

/** Paths a guest may open: tab pages and these areas. */
const OPEN_PREFIXES = [
  '/pages/modal/',
  '/pages/common/',
  '/pages/init/',
  '/pages/auth/',
  '/pages/customer/',
  // The desktop frame only holds the app; the app inside it applies this guard itself.
  '/pages/iframe/',
];

const TAB_PATH_SET: ReadonlySet<string> = new Set<string>([HOME_PATH, ...Object.values(TAB_PATHS)]);

function trimTrailingSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isTabPath(pathname: string): boolean {
  return TAB_PATH_SET.has(trimTrailingSlash(pathname));
}

export function isOpenPath(pathname: string): boolean {
  const path = trimTrailingSlash(pathname);
  // A guest chooses a language too (issue 35 #8).
  return isTabPath(path) || path === LANGUAGE_SETTING_PATH || OPEN_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The login page, returning to `from` (a path plus query) after sign-in. */
export function loginPath(from?: string): string {
  if (!from || from === HOME_PATH || from.startsWith(LOGIN_PATH)) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(from)}`;
}

const PATH_BASE = 'https://app.invalid';

/**
 * `value` when it is a path of this app — one leading `/`, never `//host`, `/\host`, a full URL,
 * a control or bidi character, or anything a URL parser would read as another host — else null.
 * Such paths also go where the router does not look: an iframe's `src`, a link's `href`.
 */
export function appPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (hasHiddenChars(value)) return null;
  try {
    return new URL(value, PATH_BASE).origin === PATH_BASE ? value : null;
  } catch {
    return null;
  }
}

/** Only same-origin paths are followed after sign-in, never `//host` or a full URL. */
export function safeRedirect(value: string | null | undefined): string {
  const path = appPath(value);
  if (!path) return HOME_PATH;
  return path.startsWith(LOGIN_PATH) ? HOME_PATH : path;
}

/** The launch page: runs the launch checks, then opens `?redirect=` (a path of this app) or home. */
export const INIT_PATH = '/pages/init/init';

/** The query-driven dialogs: with confirm and cancel, and the notice that must be acknowledged. */
export const DIALOG_PATHS = {
  modal: '/pages/modal/modal',
  notice: '/pages/modal/modal_n',
} as const;

/** Discover, videos, same city, customer service and the modal pages. */
export const FIND_PATHS = {
  incentiveWindow: '/pages/find/incentive-window',
  watchVideo: '/pages/find/watch-video',
  loveVideo: '/pages/love/video',
  customer: '/pages/customer/customer',
  webview: '/pages/modal/webview',
  updateAlert: '/pages/modal/update-alert',
  shareImage: '/pages/modal/share-image',
  iframe: '/pages/iframe/iframe',
  conversation: '/pages/chat/conversation',
} as const;

export function incentiveWindowPath(windowId: number): string {
  return `${FIND_PATHS.incentiveWindow}?id=${windowId}`;
}

export function webviewPath(url: string, title = ''): string {
  const params = new URLSearchParams({ url });
  if (title) params.set('title', title);
  return `${FIND_PATHS.webview}?${params.toString()}`;
}

/** Customer service, optionally with a first message typed in for the visitor. */
export function customerPath(draft?: string, about?: CustomerAbout): string {
  const params = new URLSearchParams();
  if (draft) params.set('draft', draft);
  if (about) params.set('about', aboutParam(about));
  const qs = params.toString();
  return qs ? `${FIND_PATHS.customer}?${qs}` : FIND_PATHS.customer;
}

/** `video:<id>`, `listing:<id>`, `recharge:<cents>:<currency>` or `videoLimit`. */
function aboutParam(about: CustomerAbout): string {
  switch (about.kind) {
    case 'listing':
    case 'video':
      return `${about.kind}:${about.id}`;
    case 'recharge':
      return `recharge:${String(about.amount)}:${about.currency}`;
    case 'videoLimit':
      return 'videoLimit';
  }
}

/** The customer page's `about` parameter back (null when absent or malformed). */
export function parseAbout(param: string | null): CustomerAbout | null {
  if (!param) return null;
  const [kind, a = '', b = ''] = param.split(':');
  if ((kind === 'listing' || kind === 'video') && /^\d{1,20}$/.test(a)) return { kind, id: a };
  if (kind === 'recharge' && /^\d{1,15}$/.test(a)) return { kind, amount: Number(a), currency: b };
  if (kind === 'videoLimit') return { kind };
  return null;
}

/** The one-to-one conversation of `me` and `peer`: OpenIM's id is both user ids in string order. */
export function singleChatPath(me: string, peer: string): string {
  const conversationID = me < peer ? `si_${me}_${peer}` : `si_${peer}_${me}`;
  return `${FIND_PATHS.conversation}?${new URLSearchParams({ conversationID }).toString()}`;
}

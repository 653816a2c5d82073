/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_API_BACKUP_HOSTS?: string;
  readonly VITE_LINE_LIST_URLS?: string;
  readonly VITE_PACKAGE_ID?: string;
  readonly VITE_PLATFORM_ID?: string;
  /** Chat socket URL (ws(s)://host/ws); default: /ws on the page's host. */
  readonly VITE_WS_URL?: string;
}

/** The build's name (vite.config define), for the service worker's URL. */
declare const __APP_BUILD__: string;

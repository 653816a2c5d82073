/** App-level calls: the update manifest (`/resource/download`), the domain entry, launch image, base data and statistics beacon. */
import { api, type RequestOptions } from './client';

export interface ManifestPackage {
  version: string;
  path: string;
  remark: string;
}

export interface UpdateManifest {
  package: { normal: ManifestPackage; force: ManifestPackage };
  resource: { version: string; path: string };
}

function field(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function manifestPackage(value: unknown): ManifestPackage {
  return { version: text(field(value, 'version')), path: text(field(value, 'path')), remark: text(field(value, 'remark')) };
}

/** Whatever the operator saved, as a complete manifest (a missing part offers nothing). */
export function normalizeManifest(data: unknown): UpdateManifest {
  const pkg = field(data, 'package');
  const resource = field(data, 'resource');
  return {
    package: { normal: manifestPackage(field(pkg, 'normal')), force: manifestPackage(field(pkg, 'force')) },
    resource: { version: text(field(resource, 'version')), path: text(field(resource, 'path')) },
  };
}

export const appApi = {
  manifest: async (options?: RequestOptions) => normalizeManifest(await api.request<unknown>('/resource/download', {}, options)),
};

/** What `/getDomainInfo` says about the domain the app runs on (the operator's entry, else defaults). */
export interface DomainInfo {
  platformId: number;
  packageId: number;
  appName: string;
  /** Base of the operator's files; empty: files are on the API's origin. */
  ossUrl: string;
}

/** The launch image of `/onloadImg`; an empty image means none. */
export interface Splash {
  image: string;
  link: string;
  seconds: number;
}

/** The parts of `/getBaseData` the app reads. */
export interface BaseData {
  appName: string;
  /** SMS codes reach phones (an SMS gateway is configured); without it a lost password goes to customer service. */
  smsEnabled: boolean;
  /** Code-API addresses that answer the alternative API hosts (the disaster-recovery line list). */
  lineListUrls: string[];
  combineId: string;
  /** The operator's default language, for visits whose browser speaks none of the six. */
  defaultLanguage: string;
}

/** Events the statistics beacon `/zztj` counts. */
export type BeaconEvent = 'launch' | 'page' | 'video' | 'download' | 'share' | 'register' | 'customer';

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

export const platformApi = {
  domainInfo: async (input: { domain: string; platformId: number; packageId: number }, options?: RequestOptions): Promise<DomainInfo> => {
    const data = await api.request<unknown>('/getDomainInfo', { ...input, type: 'h5', param: '' }, options);
    return {
      platformId: num(field(data, 'platformId')),
      packageId: num(field(data, 'packageId')),
      appName: text(field(data, 'appName')),
      ossUrl: text(field(data, 'ossUrl')),
    };
  },
  splash: async (options?: RequestOptions): Promise<Splash> => {
    const data = await api.request<unknown>('/onloadImg', {}, options);
    return { image: text(field(data, 'image')), link: text(field(data, 'link')), seconds: num(field(data, 'seconds')) };
  },
  baseData: async (options?: RequestOptions): Promise<BaseData> => {
    const data = await api.request<unknown>('/getBaseData', {}, options);
    return {
      appName: text(field(data, 'appName')),
      smsEnabled: field(data, 'smsEnabled') === true,
      lineListUrls: texts(field(data, 'lineListUrls')),
      combineId: text(field(data, 'combineId')),
      defaultLanguage: text(field(data, 'defaultLanguage')),
    };
  },
  /** Counts one event; best effort (one attempt, never a toast). */
  beacon: (event: BeaconEvent) => api.request<unknown>('/zztj', { event }, { quiet: true, maxAttempts: 1 }),
};

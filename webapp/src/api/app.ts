/** App-level calls: the update manifest (`/resource/download`). */
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

import { useQuery } from '@tanstack/react-query';
import { contentApi, type ManifestPackage, type UpdateManifest } from '../api/content';

function pkg(value: unknown): ManifestPackage {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (x: unknown): string => (typeof x === 'string' ? x : '');
  return { version: text(v.version), path: text(v.path), remark: text(v.remark) };
}

/** The manifest as sent, with every missing part read as "nothing offered". */
export function normalizeManifest(value: unknown): UpdateManifest {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const p = typeof v.package === 'object' && v.package !== null ? (v.package as Record<string, unknown>) : {};
  const r = typeof v.resource === 'object' && v.resource !== null ? (v.resource as Record<string, unknown>) : {};
  return {
    package: { normal: pkg(p.normal), force: pkg(p.force) },
    resource: {
      version: typeof r.version === 'string' ? r.version : '',
      path: typeof r.path === 'string' ? r.path : '',
    },
  };
}

export const manifestKey = ['content', 'manifest'] as const;

export function useManifest(enabled = true) {
  return useQuery({
    queryKey: manifestKey,
    queryFn: async () => normalizeManifest(await contentApi.manifest({ quiet: true })),
    enabled,
    staleTime: 10 * 60_000,
  });
}

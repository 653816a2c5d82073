/**
 * The update check on the manifest of `/resource/download`: below the
 * forced version → a prompt that cannot be closed; below the normal version → an optional
 * prompt that can be closed or ignored (an ignored version is offered again only from the
 * mine page); otherwise the mine page says 'latest version'.
 *
 * The resource revision of the manifest is for native shells that install resource packages;
 * the web app is always served in its newest build, so it has nothing to install.
 */
import type { ManifestPackage, UpdateManifest } from '../../api/app';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../api/storage';

/** Spec section 1: app version 1.3.230281753, code 13. */
export const APP_VERSION = '1.3.230281753';

/** Dotted numeric versions, part by part; a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const left = a.trim().split('.');
  const right = b.trim().split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const x = Number(left[i] ?? 0);
    const y = Number(right[i] ?? 0);
    const dx = Number.isFinite(x) ? x : 0;
    const dy = Number.isFinite(y) ? y : 0;
    if (dx !== dy) return dx < dy ? -1 : 1;
  }
  return 0;
}

export type UpdateDecision =
  | { kind: 'force'; pkg: ManifestPackage }
  | { kind: 'optional'; pkg: ManifestPackage }
  | { kind: 'ignored'; pkg: ManifestPackage }
  | { kind: 'latest' };

function offered(pkg: ManifestPackage | undefined): pkg is ManifestPackage {
  return Boolean(pkg?.version && pkg.path);
}

/**
 * What to show for `manifest`. `fromMine`: the user asked on the mine page, where an ignored
 * version is offered again.
 */
export function decideUpdate(
  manifest: UpdateManifest,
  ignoredVersion: string | null,
  fromMine: boolean,
  current: string = APP_VERSION,
): UpdateDecision {
  const { force, normal } = manifest.package;
  if (offered(force) && compareVersions(current, force.version) < 0) return { kind: 'force', pkg: force };
  if (offered(normal) && compareVersions(current, normal.version) < 0) {
    if (!fromMine && ignoredVersion === normal.version) return { kind: 'ignored', pkg: normal };
    return { kind: 'optional', pkg: normal };
  }
  return { kind: 'latest' };
}

export function ignoredVersion(store: KeyValueStore = browserStore): string | null {
  return store.get(STORAGE_KEYS.ignoreAppVersion);
}

export function ignoreVersion(version: string, store: KeyValueStore = browserStore): void {
  store.set(STORAGE_KEYS.ignoreAppVersion, version);
}

/**
 * Spec section 4, app update: installed below the forced version → a prompt that cannot be
 * closed; else below the normal version → an optional prompt with close and ignore (an
 * ignored version is not offered again, except when the user asks from the mine page); else a
 * newer resource revision → reload the app's files; else nothing ('latest version' on mine).
 */
import type { ManifestPackage, UpdateManifest } from '../api/content';
import { APP_VERSION, compareVersions } from './version';

export type UpdateDecision =
  | { kind: 'force'; pkg: ManifestPackage }
  | { kind: 'normal'; pkg: ManifestPackage }
  | { kind: 'resource'; version: string }
  | { kind: 'latest' };

export interface UpdateInput {
  manifest: UpdateManifest;
  current?: string;
  /** ignore_app_version from local storage. */
  ignored: string | null;
  /** The resource revision this copy of the app was loaded for (null: not known yet). */
  resourceSeen: string | null;
  /** Asked from the mine page: an ignored version is offered again. */
  fromMine?: boolean;
}

export function decideUpdate({ manifest, current = APP_VERSION, ignored, resourceSeen, fromMine = false }: UpdateInput): UpdateDecision {
  const { force, normal } = manifest.package;
  if (force.version && compareVersions(current, force.version) < 0) return { kind: 'force', pkg: force };
  if (normal.version && compareVersions(current, normal.version) < 0 && (fromMine || ignored !== normal.version)) {
    return { kind: 'normal', pkg: normal };
  }
  const resource = manifest.resource.version;
  if (resource && resourceSeen !== null && resource !== resourceSeen) return { kind: 'resource', version: resource };
  return { kind: 'latest' };
}

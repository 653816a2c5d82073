import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { browserStore, STORAGE_KEYS } from '../api/storage';
import { FIND_PATHS } from '../app/paths';
import { isDesktopDevice, isFramed, isStandalone } from './device';
import { useManifest } from './manifest';
import { decideUpdate } from './update';

/**
 * What happens once on launch (spec sections 2 and 4): a desktop browser gets the app inside
 * the phone-sized iframe page; an installed app (standalone window, as the native shell)
 * checks the update manifest — a forced update keeps every page behind the prompt, an optional
 * one is offered once, a new resource revision reloads the app's files.
 */
export function LaunchChecks() {
  const location = useLocation();
  const navigate = useNavigate();
  const launched = useRef(false);
  const offered = useRef(false);
  const installed = isStandalone() && !isFramed();
  const manifest = useManifest(installed);

  useEffect(() => {
    if (launched.current) return;
    launched.current = true;
    if (!isFramed() && isDesktopDevice() && !location.pathname.startsWith(FIND_PATHS.iframe)) {
      const path = `${location.pathname}${location.search}`;
      void navigate(`${FIND_PATHS.iframe}?${new URLSearchParams({ path }).toString()}`, { replace: true });
    }
  }, [location, navigate]);

  // The update prompt page shares the manifest query; only an installed app acts on it here.
  const data = installed ? manifest.data : undefined;
  const decision = data
    ? decideUpdate({
        manifest: data,
        ignored: browserStore.get(STORAGE_KEYS.ignoreAppVersion),
        resourceSeen: browserStore.get(STORAGE_KEYS.resourceVersion),
      })
    : null;

  useEffect(() => {
    if (!data) return;
    const resource = data.resource.version;
    if (!resource) return;
    const seen = browserStore.get(STORAGE_KEYS.resourceVersion);
    browserStore.set(STORAGE_KEYS.resourceVersion, resource);
    if (seen !== null && seen !== resource && decision?.kind === 'resource') window.location.reload();
  }, [data, decision?.kind]);

  useEffect(() => {
    if (decision?.kind !== 'normal' || offered.current) return;
    offered.current = true;
    void navigate(`${FIND_PATHS.updateAlert}?type=normal`);
  }, [decision?.kind, navigate]);

  if (decision?.kind === 'force' && location.pathname !== FIND_PATHS.updateAlert) {
    return <Navigate to={`${FIND_PATHS.updateAlert}?type=force`} replace />;
  }
  return null;
}

/**
 * What the operator configures for the app as a whole, read at start-up: the domain's entry
 * (`/getDomainInfo`: app name, files base, platform and package ids), the launch image
 * (`/onloadImg`) and the base data (`/getBaseData`). The
 * domain answer is kept in local storage, so the next launch shows the operator's name at once.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyOperatorLanguage } from '../../i18n';
import { platformApi, type DomainInfo } from '../../api/app';
import { setFilesBase } from '../../api/assets';
import { defaultApiConfig } from '../../api/config';
import { browserStore, STORAGE_KEYS } from '../../api/storage';
import { setLineList } from '../../api/client';
import { countEvent, countPage } from './beacon';
import { unreadTitle } from '../chat/data/badge';
import { useUnreadTotal } from '../chat/data/hooks';

const platformKeys = {
  domain: ['platform', 'domain'] as const,
  splash: ['platform', 'splash'] as const,
  base: ['platform', 'base'] as const,
};

function storedNumber(key: typeof STORAGE_KEYS.platformId | typeof STORAGE_KEYS.packageId, fallback: number): number {
  const n = Number(browserStore.get(key));
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The domain's entry; remembered in storage (platformId, packageId, appName, ossUrl). */
export const domainInfoQuery = queryOptions({
  queryKey: platformKeys.domain,
  queryFn: async ({ signal }): Promise<DomainInfo> => {
    const info = await platformApi.domainInfo(
      {
        domain: window.location.host,
        platformId: storedNumber(STORAGE_KEYS.platformId, defaultApiConfig.platformId),
        packageId: storedNumber(STORAGE_KEYS.packageId, defaultApiConfig.packageId),
      },
      { signal, quiet: true },
    );
    if (info.platformId) browserStore.set(STORAGE_KEYS.platformId, String(info.platformId));
    if (info.packageId) browserStore.set(STORAGE_KEYS.packageId, String(info.packageId));
    browserStore.set(STORAGE_KEYS.appName, info.appName);
    browserStore.set(STORAGE_KEYS.ossUrl, info.ossUrl);
    return info;
  },
  staleTime: 10 * 60_000,
});

export const splashQuery = queryOptions({
  queryKey: platformKeys.splash,
  queryFn: ({ signal }) => platformApi.splash({ signal, quiet: true }),
  staleTime: 10 * 60_000,
});

export const baseDataQuery = queryOptions({
  queryKey: platformKeys.base,
  queryFn: async ({ signal }) => {
    const base = await platformApi.baseData({ signal, quiet: true });
    setLineList(base.lineListUrls, base.combineId);
    return base;
  },
  staleTime: 10 * 60_000,
});

/** The operator's app name (the domain entry, else the last one seen), else the translated default. */
export function useAppName(): string {
  const { t } = useTranslation();
  const domain = useQuery(domainInfoQuery);
  // An empty name (not set anywhere) falls through to the next.
  return [domain.data?.appName, browserStore.get(STORAGE_KEYS.appName)].find((name) => name) ?? t('app.title');
}

/**
 * Start-up: the domain's entry (name, files base) and the base data (line list), once per
 * launch; the launch and page-view beacons.
 */
export function usePlatformStart(pathname: string): void {
  const domain = useQuery(domainInfoQuery);
  const base = useQuery(baseDataQuery);
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  // The operator's default language, when the person chose none and the browser speaks none of the six.
  const operatorLanguage = base.data?.defaultLanguage;
  useEffect(() => {
    if (operatorLanguage === undefined) return;
    void applyOperatorLanguage(operatorLanguage, i18n).then((changed) => (changed ? queryClient.invalidateQueries() : undefined));
  }, [operatorLanguage, queryClient, i18n]);
  const appName = useAppName();
  const ossUrl = domain.data?.ossUrl ?? browserStore.get(STORAGE_KEYS.ossUrl) ?? '';
  useEffect(() => {
    setFilesBase(ossUrl);
  }, [ossUrl]);
  // "(3) kj": the unread chats that may raise the badge (not the do-not-disturb ones).
  const unread = useUnreadTotal();
  useEffect(() => {
    document.title = unreadTitle(appName, unread);
  }, [appName, unread]);
  useEffect(() => {
    countEvent('launch');
  }, []);
  useEffect(() => {
    countPage(pathname);
  }, [pathname]);
}

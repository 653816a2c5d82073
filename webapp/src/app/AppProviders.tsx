import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { Provider as JotaiProvider } from 'jotai';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n as appI18n } from '../i18n';
import { appStore, type AppStore } from '../state/store';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The API module already retries network failures and renews tokens.
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

interface AppProvidersProps {
  children: ReactNode;
  store?: AppStore;
  i18n?: I18n;
  queryClient?: QueryClient;
}

/** jotai, TanStack Query and i18next around the app (tests pass their own instances). */
export function AppProviders({ children, store = appStore, i18n = appI18n, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

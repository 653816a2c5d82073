import { createStore } from 'jotai';

/**
 * The app's one jotai store. Code outside React (the API module) writes to it, the
 * Provider in app/AppProviders hands it to components.
 */
export const appStore = createStore();
export type AppStore = typeof appStore;

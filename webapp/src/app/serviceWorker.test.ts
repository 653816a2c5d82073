import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './serviceWorker';

afterEach(() => {
  vi.unstubAllEnvs();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

/** A browser whose page has loaded (jsdom's document is complete) with a worker container that records registrations. */
function browserWithWorkers() {
  vi.stubEnv('PROD', true);
  const register = vi.fn(() => Promise.resolve({ waiting: null, installing: null, addEventListener: () => undefined }));
  // jsdom has no service workers.
  Object.defineProperty(navigator, 'serviceWorker', { value: { controller: null, register }, configurable: true });
  return register;
}

describe('registerServiceWorker', () => {
  it('waits for the first screen to be painted, not only for the load event, before the install downloads the build', async () => {
    const register = browserWithWorkers();
    expect(document.readyState).toBe('complete');
    let show: () => void = () => undefined;
    const shown = new Promise<void>((resolve) => {
      show = resolve;
    });
    registerServiceWorker(createStore(), { shown });
    // The page has loaded, but the first screen is still on its way: nothing competes with it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(register).not.toHaveBeenCalled();

    show();
    await vi.waitFor(() => {
      expect(register).toHaveBeenCalledTimes(1);
    });
    expect(register).toHaveBeenCalledWith(expect.stringMatching(/^\/sw\.js\?v=/), { scope: '/' });
  });
});

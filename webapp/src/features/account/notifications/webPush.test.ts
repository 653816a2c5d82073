import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyBytes, pushSupport } from './webPush';

const realAgent = navigator.userAgent;

function setAgent(agent: string, touchPoints = 0) {
  Object.defineProperty(navigator, 'userAgent', { value: agent, configurable: true });
  Object.defineProperty(navigator, 'maxTouchPoints', { value: touchPoints, configurable: true });
}

function setStandalone(on: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: on && query.includes('standalone'), media: query }));
}

/** A browser with the Push API, notifications in `permission`. */
function setPushAPI(permission: NotificationPermission) {
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
  vi.stubGlobal('PushManager', vi.fn());
  vi.stubGlobal('Notification', { permission });
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAgent(realAgent);
});

describe('pushSupport', () => {
  it('on iPhone and iPad asks for the home screen app first, and takes it once there', () => {
    setPushAPI('default');
    setStandalone(false);
    setAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1');
    expect(pushSupport()).toBe('needsInstall');
    // iPadOS says it is a Mac, with touch.
    setAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15', 5);
    expect(pushSupport()).toBe('needsInstall');
    setStandalone(true);
    expect(pushSupport()).toBe('supported');
  });

  it('elsewhere follows the Push API and the site permission', () => {
    setStandalone(false);
    setAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36');
    setPushAPI('default');
    expect(pushSupport()).toBe('supported');
    setPushAPI('denied');
    expect(pushSupport()).toBe('denied');
    // A Mac without touch is a Mac: Safari there has the Push API in a tab.
    setAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15', 0);
    setPushAPI('granted');
    expect(pushSupport()).toBe('supported');
    vi.stubGlobal('PushManager', undefined);
    Reflect.deleteProperty(globalThis, 'PushManager');
    expect(pushSupport()).toBe('unsupported');
  });
});

describe('keyBytes', () => {
  it('decodes the base64url VAPID key without padding', () => {
    // 0xfb 0xff 0xfe: the bytes whose base64 needs both '-' and '_'.
    expect([...keyBytes('-__-')]).toEqual([0xfb, 0xff, 0xfe]);
    const key = `B${'A'.repeat(86)}`;
    const bytes = keyBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
});

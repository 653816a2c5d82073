import { describe, expect, it } from 'vitest';
import { isDesktopDevice } from './device';

describe('isDesktopDevice', () => {
  const nav = (userAgent: string, maxTouchPoints = 0, mobile?: boolean) =>
    ({ userAgent, maxTouchPoints, ...(mobile === undefined ? {} : { userAgentData: { mobile } }) }) as unknown as Navigator;

  it('is a desktop for a desktop system without touch', () => {
    expect(isDesktopDevice(nav('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126'))).toBe(true);
    expect(isDesktopDevice(nav('Mozilla/5.0 (X11; Linux x86_64) Chrome/126', 0, false))).toBe(true);
    expect(isDesktopDevice(nav('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605'))).toBe(true);
  });

  it('is not for phones, tablets (even iPadOS posing as a Mac) or unknown systems', () => {
    expect(isDesktopDevice(nav('Mozilla/5.0 (Linux; Android 14) Mobile Safari', 5))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148'))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605', 5))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (X11; Linux x86_64) Chrome/126', 0, true))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (linux) jsdom/27'))).toBe(false);
  });
});

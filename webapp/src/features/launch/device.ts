interface NavigatorUAData {
  mobile?: boolean;
}

/**
 * The device model is 'PC': a desktop browser — no touch screen and not a
 * phone or tablet user agent. Such a launch shows the app inside the phone-sized iframe page.
 */
export function isDesktopDevice(nav: Navigator = navigator): boolean {
  // Touch screens are phones and tablets (iPadOS even reports a Macintosh user agent).
  if (nav.maxTouchPoints > 0) return false;
  if (/Android|iPhone|iPad|iPod|Mobile|HarmonyOS|Windows Phone/i.test(nav.userAgent)) return false;
  const data = (nav as Navigator & { userAgentData?: NavigatorUAData }).userAgentData;
  if (data && typeof data.mobile === 'boolean') return !data.mobile;
  // Only a desktop operating system counts; anything unknown keeps the plain app.
  return /Windows NT|Macintosh|X11|CrOS/.test(nav.userAgent);
}

/** The app runs framed (inside the desktop iframe page or someone else's page). */
export function isFramed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

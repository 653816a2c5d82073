// Browser-side protections: the server's security headers, and the app passing its own
// Content-Security-Policy — no violation on the pages a guest and a signed-in user open, the
// demo content (pictures, videos) included. Chromium reports a violation as a console error
// too, so every other flow checks the policy as well; this one looks for them explicitly.
import assert from 'node:assert/strict';
import { registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

const GUEST_PAGES = [
  '/',
  '/pages/tabBar/find',
  '/pages/tabBar/city',
  '/pages/tabBar/love',
  '/pages/tabBar/mine',
  '/pages/auth/login',
  '/pages/customer/customer',
  '/pages/iframe/iframe?path=%2Fpages%2FtabBar%2Ffind',
];

const USER_PAGES = [
  '/pages/tabBar/chat',
  '/pages/find/incentive-window?windowId=1',
  '/pages/my/recharge',
  '/pages/my/points-details',
  '/pages/my/edit-information',
  '/pages/my/share-qrcode',
  '/pages/chat/contacts',
];

/** Violations the page reported since it loaded (recorded by the init script below). */
async function violations(page) {
  return page.evaluate(() => window.__cspViolations ?? []);
}

async function visit(t, path) {
  const { page } = t;
  await page.goto(t.url(path));
  await page.waitForLoadState('networkidle');
  const seen = await violations(page);
  assert.deepEqual(seen, [], `${path} broke the Content-Security-Policy`);
}

export default async function security(t) {
  const { context } = t;
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });

  await t.test('the app and the API answer with the security headers', async () => {
    for (const path of ['/', '/pages/tabBar/mine', '/api/getBaseData']) {
      const response = await fetch(t.url(path));
      const h = response.headers;
      assert.match(h.get('content-security-policy') ?? '', /script-src 'self';/, path);
      assert.match(h.get('content-security-policy') ?? '', /frame-ancestors 'self'/, path);
      assert.equal(h.get('x-frame-options'), 'SAMEORIGIN', path);
      assert.equal(h.get('x-content-type-options'), 'nosniff', path);
      assert.equal(h.get('referrer-policy'), 'same-origin', path);
    }
  });

  await t.test('a guest meets no policy violation', async () => {
    for (const path of GUEST_PAGES) await visit(t, path);
  });

  await t.test('a signed-in user meets no policy violation', async () => {
    const user = await registerUser(t, 'csp');
    await signInThroughUi(t, user.account, '/pages/tabBar/mine');
    for (const path of USER_PAGES) await visit(t, path);
  });
}

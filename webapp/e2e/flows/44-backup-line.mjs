// The disaster-recovery line: the app is served from 127.0.0.1 and its API host stops
// answering. After more than two failed attempts of a request the app asks the
// code-API address /getBaseData named (KJ_LINE_LIST_URLS, here the same server as "localhost",
// another origin) for the backup lines, moves to the line it answered and the page loads from
// there — allowed by the page's Content-Security-Policy and the backup host's CORS answer.
import assert from 'node:assert/strict';
import { registerUser, PASSWORD } from '../support/accounts.mjs';

export const server = {
  env: {
    KJ_API_LINES: 'http://localhost:{port}/api',
    KJ_LINE_LIST_URLS: 'http://localhost:{port}/api/lines',
    KJ_CORS_ORIGINS: 'http://127.0.0.1:{port}',
  },
};

export default async function backupLine(t) {
  const primary = new URL(t.baseURL);
  const backup = `http://localhost:${primary.port}`;
  // A session of its own: the failed requests of the primary host are errors in its console,
  // expected here and taken out below.
  const { page, errors } = await t.openSession();
  const user = await registerUser(t, `bl${t.language.slice(0, 2)}`);

  await page.goto(t.url('/pages/auth/login?redirect=%2Fpages%2FtabBar%2Fmine'));
  await page.getByLabel(t.text('pages.login.account')).fill(user.account);
  await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
  await page.getByRole('button', { name: t.text('pages.login.submit') }).tap();
  await page.waitForURL((url) => url.pathname === '/pages/tabBar/mine');

  await t.test('the app learns where the backup lines are listed while its host answers', async () => {
    await page.waitForFunction(() => window.localStorage.getItem('lineList') !== null);
    const stored = JSON.parse(await page.evaluate(() => window.localStorage.getItem('lineList')));
    assert.deepEqual(stored, { urls: [`${backup}/api/lines`], combineId: 'kj' });
    const csp = (await page.request.get(t.url('/'))).headers()['content-security-policy'];
    assert.match(csp, new RegExp(`connect-src [^;]*${backup.replace(/[.:/]/g, '\\$&')}`));
  });

  await t.test('when the host stops answering the app reconnects through the backup line', async () => {
    // The page records every toast it shows (one lasts 1.5 s and the next replaces it).
    await page.evaluate(() => {
      const region = document.querySelector('.toast-region');
      window.__toasts = [];
      new MutationObserver(() => {
        const text = region.textContent ?? '';
        if (text !== '' && window.__toasts.at(-1) !== text) window.__toasts.push(text);
      }).observe(region, { childList: true, subtree: true, characterData: true });
    });
    await page.route(`${t.baseURL}/api/**`, (route) => route.abort('connectionrefused'));
    // Both waits are settled even when a step before them fails, so none is left rejecting
    // after the context closes.
    const settled = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));
    const fromBackup = settled(
      page.waitForResponse(
        (response) => response.url().startsWith(`${backup}/api/user/noticeList`) && response.status() === 200,
        { timeout: 45_000 },
      ),
    );
    const lines = settled(page.waitForResponse((response) => response.url() === `${backup}/api/lines?combineId=kj`, { timeout: 45_000 }));
    await page.evaluate(() => {
      window.history.pushState(window.history.state, '', '/pages/my/notice');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    });
    const linesAnswer = await lines;
    if (linesAnswer.error) throw linesAnswer.error;
    assert.equal(linesAnswer.value.status(), 200);
    const backupAnswer = await fromBackup;
    if (backupAnswer.error) throw backupAnswer.error;
    await page.getByText(t.text('notices.emptyTitle')).waitFor({ timeout: 15_000 });
    await t.screenshot('backup-line', page);
    // "Reconnecting" is said by the request that fails a third time, unless a quiet background
    // request reached its third failure first and moved every request to the backup line; so
    // the toast is not required; what was shown must be translated and never count fewer than
    // three failures (the first two are not worth a word).
    const toasts = await page.evaluate(() => window.__toasts);
    const early = new Set([1, 2].map((count) => t.text('api.reconnectFailed', { count })));
    assert.deepEqual(toasts.filter((text) => early.has(text) || /\bapi\./.test(text)), [], `toasts shown: ${JSON.stringify(toasts)}`);
    // Only the primary host's refused requests were errors; nothing else went wrong.
    const unexpected = errors.filter((e) => !e.includes('ERR_CONNECTION_REFUSED') && !e.includes(`${t.baseURL}/api/`));
    errors.length = 0;
    assert.deepEqual(unexpected, []);
  });
}

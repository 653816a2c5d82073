// The sign-in form: reachable from the mine tab, validates before it calls the server.
import assert from 'node:assert/strict';

export default async function login(t) {
  const { page } = t;

  await t.test('the mine tab links to sign-in, which returns to mine', async () => {
    await page.goto(t.url('/pages/tabBar/mine'));
    await page.getByRole('link', { name: t.text('pages.mine.signIn') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/auth/login');
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/pages/tabBar/mine');
  });

  await t.test('empty fields are refused before any request', async () => {
    // Sign-in attempts only: the page-view beacon and the launch reads (/zztj, /getDomainInfo)
    // may fire at any moment and are not what this form sends.
    const signIn = new Set(['/api/accountLogin', '/api/accountLoginAtm', '/api/jwt/login']);
    let requests = 0;
    const count = (request) => {
      if (signIn.has(new URL(request.url()).pathname)) requests += 1;
    };
    page.on('request', count);
    try {
      const submit = page.getByRole('button', { name: t.text('pages.login.submit') });
      await submit.tap();
      await page.getByRole('alert').filter({ hasText: t.text('pages.login.accountRequired') }).waitFor();
      await page.getByLabel(t.text('pages.login.account')).fill('someone');
      await submit.tap();
      await page.getByRole('alert').filter({ hasText: t.text('pages.login.passwordRequired') }).waitFor();
      assert.equal(requests, 0);
      await t.screenshot('validation');
    } finally {
      page.off('request', count);
    }
  });
}

// What the chat flows share: users registered through the API, each from a forwarded address
// of its own (registration is limited per address, and every browser of a run is 127.0.0.1),
// signing in through the app, and the id of a one-to-one conversation.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';

/** The password of every chat flow's users. */
export const CHAT_PASSWORD = 'abc123';

/** Registers `account` through the API; resolves with the fields the flows use. */
export async function registerChatUser(baseURL, account) {
  const response = await fetch(`${baseURL}/api/register`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': 'en-US',
      'X-Forwarded-For': `10.${randomInt(0, 250)}.${randomInt(0, 250)}.${randomInt(1, 250)}`,
    },
    body: JSON.stringify({ account, password: CHAT_PASSWORD, confirmPassword: CHAT_PASSWORD }),
  });
  const body = await response.json();
  assert.equal(body.code, 0, `register ${account}: ${body.message}`);
  return { account, nickname: account, userId: String(body.data?.userId ?? '') };
}

/** Signs `user` in on `page` through the sign-in form and waits for the chat tab. */
export async function signInToChat(t, page, user, password = CHAT_PASSWORD) {
  await page.goto(t.url('/pages/auth/login'));
  await page.getByLabel(t.text('pages.login.account')).fill(user.account);
  await page.getByLabel(t.text('pages.login.password')).fill(password);
  await page.getByRole('button', { name: t.text('pages.login.submit') }).tap();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { level: 1, name: t.text('pages.chat.title') }).waitFor();
}

/** The one-to-one conversation id of two users, as the server names it. */
export const single = (a, b) => (a < b ? `si_${a}_${b}` : `si_${b}_${a}`);

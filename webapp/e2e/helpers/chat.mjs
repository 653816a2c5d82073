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

/**
 * Calls the chat socket as the user signed in on page (a socket of its own, as a second
 * device would), or as `as` ({ userID, token }: another user, from page's origin): Login, then
 * each [name, ...args] in turn, an argument '$prev' standing for the reply before; returns the
 * last reply's data.
 */
export async function socketCalls(page, calls, as = null) {
  return page.evaluate(async ({ list, as }) => {
    const userID = as?.userID ?? localStorage.getItem('userId') ?? '';
    const token = as?.token ?? localStorage.getItem('wsToken') ?? '';
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws?sendID=${userID}&token=${encodeURIComponent(token)}&platformID=5&operationID=e2e`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error('socket failed'));
    });
    let n = 0;
    const call = (name, args) =>
      new Promise((resolve, reject) => {
        n += 1;
        const operationID = `e2e-${n}`;
        const onMessage = (event) => {
          const reply = JSON.parse(event.data);
          if (reply.operationID !== operationID) return;
          ws.removeEventListener('message', onMessage);
          if (reply.errCode !== 0) reject(new Error(`${name}: ${reply.errCode} ${reply.errMsg}`));
          else resolve(reply.data ? JSON.parse(reply.data) : null);
        };
        ws.addEventListener('message', onMessage);
        ws.send(JSON.stringify({ reqFuncName: name, operationID, userID, data: JSON.stringify(args) }));
      });
    try {
      await call('Login', [userID, token]);
      let last = null;
      for (const [name, ...args] of list) last = await call(name, args.map((arg) => (arg === '$prev' ? last : arg)));
      return last;
    } finally {
      ws.close();
    }
  }, { list: calls, as });
}

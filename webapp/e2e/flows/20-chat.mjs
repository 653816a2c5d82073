// Chat between real users on the real server: a friend request with its
// verification message, text and image both ways, unread badges, a group with a mute, and
// catching up on messages sent while offline. Three browser contexts are three users.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat } from '../helpers/chat.mjs';

// A 4 x 4 red PNG: the server sniffs the type, so it must be a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAEAQMAAACTPww9AAAAA1BMVEX/AAAZ4gk3AAAAC0lEQVQI12NgQAcAABIAAeRVjecAAAAASUVORK5CYII=',
  'base64',
);

export default async function chatFlow(t) {
  const rules = new Intl.PluralRules(t.language);
  const plural = (key, count) => t.text(`${key}_${rules.select(count)}`, { count });
  const suffix = String(randomInt(100000, 999999));
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
  const toast = (page, text) => page.locator('.toast').filter({ hasText: text }).waitFor();

  const signIn = (page, user) => signInToChat(t, page, user);

  async function openConversationWith(page, name) {
    await page.goto(t.url('/'));
    await page.locator('.conversation-row', { hasText: name }).first().tap();
    await page.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await composer(page).waitFor();
  }

  async function sendText(page, text) {
    const box = composer(page);
    await box.fill(text);
    await page.getByRole('button', { name: t.text('chat.composer.send') }).click();
    // Sent: stored by the server (status 2), not pending or failed.
    await page.locator('.msg-row[data-status="2"]', { hasText: text }).last().waitFor();
  }

  /** A sends `to` a friend request through search, `to` accepts it in new friends. */
  async function befriend(pageA, pageTo, to, message) {
    await pageA.goto(t.url('/pages/chat/add-friend'));
    await pageA.getByLabel(t.text('chat.addFriend.searchPlaceholder')).fill(to.nickname);
    await pageA.getByRole('button', { name: t.text('chat.addFriend.search') }).tap();
    await pageA.getByRole('list', { name: t.text('chat.addFriend.results') }).getByText(to.nickname, { exact: true }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/user-info');
    await pageA.getByRole('button', { name: t.text('chat.userInfo.addFriend') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/friend-verify');
    const field = pageA.getByLabel(t.text('chat.friendVerify.label'));
    await field.fill('');
    await pageA.getByRole('button', { name: t.text('chat.friendVerify.send') }).tap();
    await pageA.getByRole('alert').filter({ hasText: t.text('chat.friendVerify.required') }).waitFor();
    await field.fill(message);
    await pageA.getByRole('button', { name: t.text('chat.friendVerify.send') }).tap();
    await toast(pageA, t.text('chat.friendVerify.sent'));

    await pageTo.goto(t.url('/pages/chat/contacts'));
    await pageTo.getByRole('link', { name: t.text('chat.newFriend.title') }).tap();
    await pageTo.waitForURL((url) => url.pathname === '/pages/chat/new-friend');
    const row = pageTo.locator('.request-row', { hasText: message });
    await row.getByRole('button', { name: t.text('chat.newFriend.accept') }).tap();
    await row.getByText(t.text('chat.newFriend.added')).waitFor();
  }

  const a = await registerChatUser(t.baseURL, `ca${suffix}`);
  const b = await registerChatUser(t.baseURL, `cb${suffix}`);
  const c = await registerChatUser(t.baseURL, `cc${suffix}`);
  const pageA = t.page;
  let sessionB = await t.openSession();
  const sessionC = await t.openSession();

  await t.test('A sends B a friend request with the required message; B accepts it', async () => {
    await signIn(pageA, a);
    await signIn(sessionB.page, b);
    await befriend(pageA, sessionB.page, b, `Hi from ${a.nickname}`);
    await pageA.goto(t.url('/pages/chat/contacts'));
    await pageA.getByRole('link', { name: b.nickname }).waitFor();
    await t.screenshot('contacts');

    // Search finds the new friend, and says so when nothing matches.
    await pageA.goto(t.url('/pages/chat/search'));
    const search = pageA.getByRole('searchbox', { name: t.text('chat.search.placeholder') });
    await search.fill(b.nickname);
    await pageA.getByRole('link', { name: new RegExp(b.nickname) }).first().waitFor();
    await search.fill('no-such-name');
    await pageA.getByText(t.text('chat.search.empty')).waitFor();
  });

  await t.test("A writes, B's unread badge goes up and clears on reading, B answers", async () => {
    const pageB = sessionB.page;
    await pageB.goto(t.url('/'));
    await pageA.goto(t.url('/pages/chat/contacts'));
    await pageA.getByRole('link', { name: b.nickname }).tap();
    await pageA.getByRole('button', { name: t.text('chat.userInfo.sendMessage') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await sendText(pageA, `hello ${b.nickname}, see https://example.com/x?a=1&b=<2>`);
    // A link is a link, and markup stays text.
    await pageA.getByRole('link', { name: 'https://example.com/x?a=1&b=' }).waitFor();

    const badge = pageB.getByTestId('tab-badge-chat');
    await badge.waitFor();
    assert.equal((await badge.textContent())?.trim(), '1');
    const row = pageB.locator('.conversation-row', { hasText: a.nickname });
    await row.locator('.chat-badge').filter({ hasText: '1' }).waitFor();
    await t.screenshot('list', pageB);

    await row.tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await pageB.locator('.msg-text', { hasText: `hello ${b.nickname}` }).waitFor();
    await sendText(pageB, `hi ${a.nickname}`);
    await pageA.locator('.msg-text', { hasText: `hi ${a.nickname}` }).waitFor();
    // Words left in the box stay as the conversation's draft.
    await composer(pageB).fill('unsent words');
    await pageB.goBack();
    await pageB.getByRole('heading', { level: 1, name: t.text('pages.chat.title') }).waitFor();
    await badge.waitFor({ state: 'detached' });
    assert.equal(await row.locator('.chat-badge').count(), 0);
    await row.getByText(t.text('chat.list.draft', { text: 'unsent words' })).waitFor();
  });

  await t.test('they exchange images', async () => {
    const pageB = sessionB.page;
    await pageA.getByRole('button', { name: t.text('chat.composer.more') }).tap();
    await pageA.getByTestId('pick-image').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: PNG });
    await pageA.locator('.msg-row[data-status="2"] img.msg-image').last().waitFor();
    await openConversationWith(pageB, a.nickname);
    const received = pageB.locator('img.msg-image[src]').last();
    await received.waitFor();
    // B sees it through a link signed for B; the bare path is refused to a signed-out fetch.
    const src = (await received.getAttribute('src')) ?? '';
    assert.match(src, /^\/files\/chat\/[0-9a-f]{2}\/[0-9a-f]{32}\.png\?(?=.*\be=\d+)(?=.*\bs=)(?=.*\bu=\d+)/);
    await pageB.waitForFunction(() => {
      const imgs = document.querySelectorAll('img.msg-image[src]');
      const img = imgs[imgs.length - 1];
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    });
    assert.equal((await fetch(t.url(src.slice(0, src.indexOf('?'))))).status, 403);
    // The draft comes back into the box; with text in it, the box offers Send instead of More.
    assert.equal(await composer(pageB).inputValue(), 'unsent words');
    await composer(pageB).fill('');
    await pageB.getByRole('button', { name: t.text('chat.composer.more') }).tap();
    await pageB.getByTestId('pick-image').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: PNG });
    await pageB.locator('.msg-row[data-status="2"] img.msg-image').last().waitFor();
    await pageA.locator('img.msg-image[src]').nth(1).waitFor();
    // The picture opens full screen; the page's address names the attachment, not a link.
    await received.tap();
    await pageB.waitForURL((url) => url.pathname === '/preview-image' && !url.search.includes('s%3D'));
    await pageB.locator('.preview-image__img[src*="/files/chat/"]').waitFor();
    await t.screenshot('conversation');
  });

  await t.test("A creates a group with B and C and mutes B for 60 s; B's box is closed with the mute message", async () => {
    const pageB = sessionB.page;
    const pageC = sessionC.page;
    await signIn(pageC, c);
    await befriend(pageA, pageC, c, `Hello ${c.nickname}`);

    await pageA.goto(t.url('/'));
    await pageA.getByRole('button', { name: t.text('chat.list.addMenu') }).tap();
    await pageA.getByRole('button', { name: t.text('chat.list.createGroup') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/group');
    await pageA.getByRole('button', { name: t.text('chat.group.create') }).tap();
    await pageA.getByRole('alert').filter({ hasText: t.text('chat.errors.groupNameRequired') }).waitFor();
    const groupName = `Team ${suffix}`;
    await pageA.getByLabel(t.text('chat.group.name')).fill(groupName);
    await pageA.locator('label.picker-row', { hasText: b.nickname }).tap();
    await pageA.locator('label.picker-row', { hasText: c.nickname }).tap();
    await pageA.getByRole('button', { name: t.text('chat.group.create') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await pageA.locator('.msg-notice', { hasText: t.text('chat.notice.groupCreated', { name: t.text('chat.notice.you') }) }).waitFor();

    await pageA.getByRole('link', { name: t.text('chat.groupInfo.title') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/group-info');
    await pageA.getByText(plural('chat.groupInfo.members', 3)).waitFor();
    await pageA.locator('.chat-tag--owner').waitFor();
    await pageA.getByRole('button', { name: t.text('chat.groupInfo.memberLabel', { name: b.nickname }) }).tap();
    await pageA.getByRole('button', { name: t.text('chat.groupInfo.mute'), exact: true }).tap();
    await pageA.getByRole('button', { name: plural('chat.duration.minutes', 1) }).tap();
    await pageA.locator('.chat-tag--muted').waitFor();
    await t.screenshot('group-info');

    await pageB.goto(t.url('/'));
    await pageB.locator('.conversation-row', { hasText: groupName }).tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    // Muted: the box is closed with the reason and the time left (issue 35), instead of
    // taking a message the server would refuse.
    await pageB.getByTestId('conversation-notice').filter({ hasText: t.text('chat.duration.minutes', { count: 1 }) }).waitFor();
    assert.equal(await composer(pageB).isDisabled(), true);
    await t.screenshot('group-muted', pageB);
    // C is not muted: C's message reaches A.
    await pageC.goto(t.url('/'));
    await pageC.locator('.conversation-row', { hasText: groupName }).tap();
    await sendText(pageC, `C here ${suffix}`);
    await pageA.goto(t.url('/'));
    await pageA.locator('.conversation-row', { hasText: groupName }).locator('.conversation-row__preview', { hasText: `C here ${suffix}` }).waitFor();
  });

  await t.test('B goes offline, A sends three messages, B comes back and sees them in order', async () => {
    await sessionB.context.close();
    await openConversationWith(pageA, b.nickname);
    for (const text of ['one', 'two', 'three']) await sendText(pageA, `${text} ${suffix}`);

    sessionB = await t.openSession();
    const pageB = sessionB.page;
    await signIn(pageB, b);
    const row = pageB.locator('.conversation-row', { hasText: a.nickname });
    await row.locator('.chat-badge').filter({ hasText: '3' }).waitFor();
    await row.tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await pageB.locator('.msg-text', { hasText: `three ${suffix}` }).waitFor();
    const texts = await pageB.locator('.msg-text').allTextContents();
    const last = texts.slice(-3);
    assert.deepEqual(last, [`one ${suffix}`, `two ${suffix}`, `three ${suffix}`]);

    // A long press (a right click here) opens the message menu; forward it to a conversation.
    await pageB.locator('.msg-bubble', { hasText: `three ${suffix}` }).click({ button: 'right' });
    await pageB.getByRole('button', { name: t.text('chat.message.forward') }).tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/forward');
    await pageB.locator('label.picker-row', { hasText: a.nickname }).tap();
    await pageB.getByRole('button', { name: t.text('chat.forward.send', { count: 1 }) }).tap();
    await toast(pageB, t.text('chat.forward.done'));
    await pageA.locator('.msg-line:not(.msg-line--mine) .msg-text', { hasText: `three ${suffix}` }).waitFor();
  });

  await t.test('a dropped socket shows the reconnecting banner, reconnects and catches up by seq', async () => {
    const pageB = sessionB.page;
    // The chat socket goes through a route the test can cut, and keep cut for a while.
    let current = null;
    let blocked = false;
    await pageB.routeWebSocket(/\/ws\?/, (ws) => {
      if (blocked) {
        ws.close({ code: 1006 });
        return;
      }
      current = ws;
      ws.connectToServer();
    });
    await openConversationWith(pageB, a.nickname);
    assert.ok(current, 'the socket went through the route');

    blocked = true;
    await current.close({ code: 1006 });
    const banner = pageB.getByTestId('chat-connecting');
    await banner.filter({ hasText: t.text('chat.connection.reconnecting') }).waitFor();
    await t.screenshot('reconnecting', pageB);

    // Sent while B is away: no push reaches B; the catch-up after the reconnect brings it.
    await sendText(pageA, `while away ${suffix}`);
    blocked = false;
    await banner.waitFor({ state: 'detached' });
    await pageB.locator('.msg-text', { hasText: `while away ${suffix}` }).waitFor();
    const texts = await pageB.locator('.msg-text').allTextContents();
    assert.equal(texts.filter((x) => x === `while away ${suffix}`).length, 1, 'caught up once, no duplicate');
  });

  await t.test('signing in elsewhere kicks the old session offline: toast, then sign-in', async () => {
    const pageC = sessionC.page;
    const kicked = toast(pageC, t.text('chat.connection.kicked'));
    const again = await t.openSession();
    await signIn(again.page, c);
    await kicked;
    await pageC.waitForURL((url) => url.pathname === '/pages/auth/login');
    assert.equal(await pageC.evaluate(() => window.localStorage.getItem('access_token')), null);
  });
}

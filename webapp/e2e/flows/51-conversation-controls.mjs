// Conversation controls between real users: pinning a chat moves it to the top (and stays
// there after a reload: the server keeps it); a chat set to do not disturb counts its new
// message in its row but raises neither the chat tab's badge nor the document title, until it
// is unmuted; a draft left in a chat shows as "[Draft]" in the list and is back in the box;
// while the app is hidden a new message raises a notification whose click opens the chat.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single } from '../helpers/chat.mjs';

export default async function conversationControlsFlow(t) {
  const rules = new Intl.PluralRules(t.language);
  const plural = (key, count, values = {}) => t.text(`${key}_${rules.select(count)}`, { count, ...values });
  const suffix = String(randomInt(100000, 999999));
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
  const toast = (page, text) => page.locator('.toast').filter({ hasText: text }).waitFor();

  const signIn = (page, user) => signInToChat(t, page, user);

  async function send(page, text) {
    await composer(page).fill(text);
    await page.getByRole('button', { name: t.text('chat.composer.send') }).click();
    await page.locator('.msg-row[data-status="2"]', { hasText: text }).last().waitFor();
  }

  const a = await registerChatUser(t.baseURL, `ca${suffix}`);
  const b = await registerChatUser(t.baseURL, `cb${suffix}`);
  const c = await registerChatUser(t.baseURL, `cc${suffix}`);
  const withB = single(a.userId, b.userId);
  const withC = single(a.userId, c.userId);
  const chatURL = (id) => t.url(`/pages/chat/conversation?conversationID=${id}`);
  const pageA = t.page;
  const rows = pageA.locator('.conversation-row');
  const rowB = pageA.locator(`.conversation-row[data-conversation="${withB}"]`);
  const rowC = pageA.locator(`.conversation-row[data-conversation="${withC}"]`);
  const chatBadge = pageA.getByTestId('tab-badge-chat');

  await t.test('pinning the older chat moves it to the top, and the server keeps it there', async () => {
    // This browser allows notifications from the start: A's first message asks for them (once),
    // and a browser that refused would leave them off in the app.
    await t.context.grantPermissions(['notifications'], { origin: new URL(t.baseURL).origin });
    await signIn(pageA, a);
    await pageA.goto(chatURL(withB));
    await send(pageA, `hello b ${suffix}`);
    await pageA.goto(chatURL(withC));
    await send(pageA, `hello c ${suffix}`);
    await pageA.goto(t.url('/'));
    await rowC.waitFor();
    await pageA.waitForFunction((id) => document.querySelector('.conversation-row')?.getAttribute('data-conversation') === id, withC);

    await rowB.click({ button: 'right' });
    await pageA.getByRole('button', { name: t.text('chat.list.pin'), exact: true }).tap();
    await pageA.waitForFunction((id) => document.querySelector('.conversation-row')?.getAttribute('data-conversation') === id, withB);
    await pageA.locator('.conversation-row--pinned').first().waitFor();
    await t.screenshot('pinned');
    await pageA.reload();
    await rowB.waitFor();
    assert.equal(await rows.first().getAttribute('data-conversation'), withB);
    assert.equal(await rowB.evaluate((el) => el.classList.contains('conversation-row--pinned')), true);
  });

  await t.test('a chat on do not disturb counts its message in the row but not in the tab badge or title', async () => {
    await pageA.goto(chatURL(withB));
    await pageA.getByRole('link', { name: t.text('chat.controls.title') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation-settings');
    const mute = pageA.getByRole('switch', { name: t.text('chat.controls.mute') });
    assert.equal(await mute.isChecked(), false);
    assert.equal(await pageA.getByRole('switch', { name: t.text('chat.list.pin') }).isChecked(), true);
    await mute.tap();
    await toast(pageA, t.text('chat.controls.muted'));
    assert.equal(await mute.isChecked(), true);
    await t.screenshot('settings');

    await pageA.goto(t.url('/'));
    await rowB.and(pageA.locator('[data-muted="true"]')).waitFor();
    const appTitle = await pageA.title();
    assert.equal(await chatBadge.count(), 0);

    const sessionB = await t.openSession();
    try {
      await signIn(sessionB.page, b);
      await sessionB.page.goto(chatURL(withB));
      await send(sessionB.page, `quiet please ${suffix}`);
    } finally {
      await sessionB.context.close();
    }
    const rowLabel = t.text('chat.controls.rowMuted', { label: plural('chat.list.rowLabel', 1, { name: b.nickname }) });
    await pageA.getByRole('button', { name: rowLabel }).waitFor();
    await rowB.filter({ hasText: `quiet please ${suffix}` }).waitFor();
    assert.equal(await chatBadge.count(), 0);
    assert.equal(await pageA.title(), appTitle);
    await t.screenshot('muted-unread');

    // Back on: the same unread message raises the badge and the title.
    await rowB.click({ button: 'right' });
    await pageA.getByRole('button', { name: t.text('chat.controls.unmute'), exact: true }).tap();
    await chatBadge.waitFor();
    await pageA.waitForFunction((name) => document.title === `(1) ${name}`, appTitle);
    assert.equal(await rowB.getAttribute('data-muted'), null);
  });

  await t.test('a draft survives leaving the chat and a reload', async () => {
    const draft = `half a thought ${suffix}`;
    await rowC.tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await composer(pageA).fill(draft);
    await pageA.getByRole('button', { name: t.text('common.back') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/');
    const drafted = rowC.filter({ hasText: t.text('chat.list.draft', { text: draft }) });
    await drafted.waitFor();
    // The draft moved C's chat up under the pinned one.
    assert.deepEqual(await rows.evaluateAll((els) => els.slice(0, 2).map((el) => el.getAttribute('data-conversation'))), [withB, withC]);
    await t.screenshot('draft');
    await pageA.reload();
    await drafted.waitFor();
    await rowC.tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    assert.equal(await composer(pageA).inputValue(), draft);
  });

  await t.test('while the app is hidden, a new message raises a notification that opens its chat', async () => {
    await pageA.goto(t.url(`/pages/chat/conversation-settings?conversationID=${withC}`));
    const notify = pageA.getByRole('switch', { name: t.text('chat.controls.notifications') });
    // The browser allows them (granted before A's first message): on unless turned off here; the
    // switch turns them off and on.
    await pageA.getByRole('switch', { name: t.text('chat.controls.notifications'), checked: true }).waitFor();
    await notify.tap();
    await pageA.getByRole('switch', { name: t.text('chat.controls.notifications'), checked: false }).waitFor();
    await notify.tap();
    await pageA.getByRole('switch', { name: t.text('chat.controls.notifications'), checked: true }).waitFor();
    await t.screenshot('notifications-on');
    await pageA.goto(t.url('/'));
    await rowC.waitFor();
    // Record what the app shows (the browser's own notification is outside the page), and hide the page.
    await pageA.evaluate(() => {
      const Real = window.Notification;
      window.__shown = [];
      window.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          window.__shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '', note: this });
        }
      };
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });

    const sessionC = await t.openSession();
    const text = `are you there ${suffix}`;
    try {
      await signIn(sessionC.page, c);
      await sessionC.page.goto(chatURL(withC));
      await send(sessionC.page, text);
    } finally {
      await sessionC.context.close();
    }
    await pageA.waitForFunction(() => window.__shown.length > 0);
    const shown = await pageA.evaluate(() => window.__shown.map(({ title, body, tag }) => ({ title, body, tag })));
    assert.deepEqual(shown, [{ title: c.nickname, body: text, tag: withC }]);
    await pageA.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      window.__shown[0].note.onclick();
    });
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation' && url.searchParams.get('conversationID') === withC);
    await pageA.locator('.msg-text', { hasText: text }).waitFor();
  });
}

// Read receipts and presence between two real users: A writes, the line under A's message
// says "Unread" until B opens the chat, then "Read"; A's chat header says B is online, and
// "last seen" once B's browser is gone; B hiding their presence leaves A's header silent.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single } from '../helpers/chat.mjs';

export default async function receiptsPresenceFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });

  const signIn = (page, user) => signInToChat(t, page, user);

  const a = await registerChatUser(t.baseURL, `ra${suffix}`);
  const b = await registerChatUser(t.baseURL, `rb${suffix}`);
  const conversation = t.url(`/pages/chat/conversation?conversationID=${single(a.userId, b.userId)}`);
  const pageA = t.page;
  let sessionB = await t.openSession();
  const presence = pageA.getByTestId('presence');
  const text = `read me ${suffix}`;

  await t.test('A writes B; "Unread" under the message until B opens the chat, then "Read"', async () => {
    await signIn(pageA, a);
    await signIn(sessionB.page, b);
    await pageA.goto(conversation);
    await composer(pageA).fill(text);
    await pageA.getByRole('button', { name: t.text('chat.composer.send') }).click();
    const row = pageA.locator('.msg-row[data-status="2"]', { hasText: text });
    await row.getByTestId('read-state').filter({ hasText: t.text('chat.message.unread') }).waitFor();
    // B is a chat peer now: A's header follows B's presence.
    await presence.filter({ hasText: t.text('chat.presence.online') }).waitFor();
    await t.screenshot('unread');

    const pageB = sessionB.page;
    await pageB.locator('.conversation-row', { hasText: a.nickname }).tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await pageB.locator('.msg-text', { hasText: text }).waitFor();
    // B's view of A's message carries no read state: only the sender sees it.
    assert.equal(await pageB.locator('.msg-row', { hasText: text }).getByTestId('read-state').count(), 0);
    await row.getByTestId('read-state').filter({ hasText: t.text('chat.message.read') }).waitFor();
    await t.screenshot('read');
  });

  await t.test('B goes offline: A sees "last seen"; B hides their presence: A sees nothing', async () => {
    await sessionB.context.close();
    await presence.filter({ hasText: t.text('chat.presence.lastSeen', { time: t.text('time.justNow') }) }).waitFor({ timeout: 20_000 });
    await t.screenshot('last-seen');

    sessionB = await t.openSession();
    const pageB = sessionB.page;
    await signIn(pageB, b);
    await presence.filter({ hasText: t.text('chat.presence.online') }).waitFor();
    await pageB.goto(t.url('/pages/my/privacy-setting'));
    const toggle = pageB.getByRole('switch', { name: t.text('chat.privacy.hidePresence') });
    assert.equal(await toggle.isChecked(), false);
    await toggle.tap();
    await pageB.locator('.toast').filter({ hasText: t.text('chat.privacy.saved') }).waitFor();
    assert.equal(await toggle.isChecked(), true);
    await t.screenshot('privacy', pageB);
    // Hidden: neither online nor last seen.
    await presence.waitFor({ state: 'detached' });
    await pageB.reload();
    assert.equal(await pageB.getByRole('switch', { name: t.text('chat.privacy.hidePresence') }).isChecked(), true);
  });
}

// Two devices of one user (KJ_LOGIN_POLICY=devices): two browser contexts signed in as A at
// once. A message A sends on one shows on the other as A's own; a message from B raises the
// unread badge on both and reading it on one clears it on the other; the device list in the
// safety settings shows both, and "sign out all other devices" on one signs the other out; one
// sign-in more than KJ_LOGIN_MAX_DEVICES signs the oldest out with words of its own.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { CHAT_PASSWORD, registerChatUser, signInToChat, single, socketCalls } from '../helpers/chat.mjs';

export const server = { env: { KJ_LOGIN_POLICY: 'devices', KJ_LOGIN_MAX_DEVICES: '3' } };

/**
 * Sends `text` from `sender` to `recvID` over a chat socket of the sender's own, opened from
 * `page` (any page of the app's origin; its own session is not used).
 */
async function sendAs(page, sender, recvID, text) {
  await socketCalls(
    page,
    [
      ['CreateTextMessage', text],
      ['SendMessage', '$prev', recvID, '', { title: '', desc: '', ex: '' }, false],
    ],
    { userID: sender.userId, token: sender.chatToken },
  );
}

export default async function twoDevicesFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const a = await registerChatUser(t.baseURL, `da${suffix}`);
  const b = await registerChatUser(t.baseURL, `db${suffix}`);
  const signedB = await t.api('/accountLogin', { account: b.account, password: CHAT_PASSWORD, platform: 5, operationID: 'e2e-b' });
  assert.equal(signedB.code, 0, signedB.message);
  const sender = { userId: b.userId, chatToken: signedB.data.chatToken };
  const conversation = single(a.userId, b.userId);
  const phone = t.page;
  const laptop = (await t.openSession()).page;
  const rowOf = (page) => page.locator(`.conversation-row[data-conversation="${conversation}"]`);
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });

  await t.test('signed in on two devices at once, a message sent on one shows on the other as mine', async () => {
    await signInToChat(t, phone, a);
    await signInToChat(t, laptop, a);
    // The second sign-in did not sign the first out: its chat list still answers.
    await phone.goto(t.url(`/pages/chat/conversation?conversationID=${conversation}`));
    const text = `from my phone ${suffix}`;
    await composer(phone).fill(text);
    await phone.getByRole('button', { name: t.text('chat.composer.send') }).click();
    await phone.locator('.msg-row[data-status="2"]', { hasText: text }).waitFor();

    await rowOf(laptop).locator('.conversation-row__preview', { hasText: text }).waitFor();
    assert.equal(await rowOf(laptop).locator('.chat-badge').count(), 0, 'my own message is not unread on my other device');
    await rowOf(laptop).tap();
    await laptop.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await laptop.locator('.msg-bubble--mine', { hasText: text }).waitFor();
    await t.screenshot('sent-elsewhere', laptop);
  });

  await t.test("B writes: both devices show the unread badge; reading on one clears the other's", async () => {
    await laptop.goto(t.url('/'));
    await phone.goto(t.url('/'));
    const text = `to both of you ${suffix}`;
    await sendAs(laptop, sender, a.userId, text);
    for (const page of [phone, laptop]) {
      await rowOf(page).locator('.chat-badge').filter({ hasText: '1' }).waitFor();
      await page.getByTestId('tab-badge-chat').waitFor();
    }
    await rowOf(phone).tap();
    await phone.locator('.msg-text', { hasText: text }).waitFor();
    // Read on the phone: the laptop's row and tab badges go without a reload.
    await rowOf(laptop).locator('.chat-badge').waitFor({ state: 'detached' });
    await laptop.getByTestId('tab-badge-chat').waitFor({ state: 'detached' });
    await t.screenshot('read-elsewhere', laptop);
  });

  await t.test('the device list shows both; "sign out all other devices" signs the other one out', async () => {
    await phone.goto(t.url('/pages/my/safety-setting'));
    await phone.getByRole('link', { name: t.text('devices.link') }).tap();
    await phone.waitForURL((url) => url.pathname === '/pages/setting/devices');
    const rows = phone.getByTestId('device-row');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await phone.locator('[data-testid="device-row"][aria-current="true"]').count(), 1);
    await phone.locator('[data-testid="device-row"][aria-current="true"]', { hasText: t.text('devices.thisDevice') }).waitFor();
    await t.screenshot('devices');

    await phone.getByRole('button', { name: t.text('devices.signOutOthers') }).tap();
    const dialog = phone.getByRole('dialog', { name: t.text('devices.signOutOthersTitle') });
    await dialog.getByRole('button', { name: t.text('devices.signOutOthersConfirm') }).tap();
    await phone.locator('.toast').filter({ hasText: t.text('devices.othersSignedOut', { count: 1 }) }).waitFor();
    await rows.nth(1).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);

    // The laptop's socket hears its sign-in ended: it says so and opens the sign-in page.
    await laptop.locator('.toast').filter({ hasText: t.text('chat.connection.expired') }).waitFor();
    await laptop.waitForURL((url) => url.pathname === '/pages/auth/login');
    // The phone stays signed in.
    await phone.goto(t.url('/'));
    await rowOf(phone).waitFor();
  });

  await t.test('signing in on more devices than allowed signs the oldest out, in words of its own', async () => {
    // The phone is the only device left; three more sign-ins (the limit is 3) make one too many.
    for (let i = 0; i < 3; i += 1) {
      const more = await t.api('/accountLogin', { account: a.account, password: CHAT_PASSWORD, platform: 5, operationID: `e2e-more-${i}` });
      assert.equal(more.code, 0, more.message);
    }
    await phone.locator('.toast').filter({ hasText: t.text('chat.connection.deviceLimit') }).waitFor();
    await phone.waitForURL((url) => url.pathname === '/pages/auth/login');
    assert.notEqual(t.text('chat.connection.deviceLimit'), t.text('chat.connection.kicked'));
  });
}

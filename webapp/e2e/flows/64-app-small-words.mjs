// The app's small words and states (issue 35 #4), at 390 x 844: the empty chat list offers
// "Add friend" (inside the screen, opening the add-friend page); the language page's title is
// there once; the recharge success screen shows a success check, not the empty-inbox icon; old
// messages show their sender's avatar as it is now, after the sender changed it.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { CHAT_PASSWORD, registerChatUser, signInToChat, single } from '../helpers/chat.mjs';

// A 1 x 1 PNG: the new avatar.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function inside(box, what) {
  assert.ok(box, `${what} has no box`);
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 390.5 && box.y + box.height <= 844.5, `${what} ${JSON.stringify(box)} is outside the screen`);
}

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export default async function appSmallWords(t) {
  const { page } = t;
  const suffix = String(randomInt(100000, 999999));
  const a = await registerChatUser(t.baseURL, `wa${suffix}`);
  const b = await registerChatUser(t.baseURL, `wb${suffix}`);

  await t.test('the empty chat list offers "Add friend", inside the screen', async () => {
    await signInToChat(t, page, a);
    await page.getByText(t.text('pages.chat.emptyTitle')).waitFor();
    const add = page.getByTestId('empty-add-friend');
    assert.equal((await add.textContent()).trim(), t.text('chat.list.addFriend'));
    const box = await add.boundingBox();
    inside(box, 'Add friend');
    const tabBar = await page.locator('nav').last().boundingBox();
    if (tabBar) assert.ok(box.y + box.height <= tabBar.y, 'Add friend is under the tab bar');
    await t.screenshot('empty-chats');
    await add.tap();
    await page.waitForURL((url) => url.pathname === '/pages/chat/add-friend');
  });

  await t.test("the language page's title is there once", async () => {
    await page.goto(t.url('/pages/my/language-setting'));
    const title = t.text('pages.languageSetting.title');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    assert.equal(await page.getByText(title, { exact: true }).count(), 1, 'the title is on the page more than once');
    assert.equal(await page.getByRole('group', { name: title }).count(), 1, 'the list of languages is named for screen readers');
    await t.screenshot('language');
  });

  await t.test('the recharge success screen shows a success check', async () => {
    await page.goto(t.url('/pages/my/recharge'));
    const usdt = page.getByRole('tab', { name: 'USDT', exact: true }).or(page.getByRole('radio', { name: 'USDT', exact: true })).first();
    await usdt.tap();
    await page.locator('input[name="tx-hash"]').fill(randomBytes(32).toString('hex'));
    await page.locator('input[name="amount"]').fill('20');
    await page.getByRole('button', { name: t.text('recharge.submit'), exact: true }).tap();
    await page.getByText(t.text('recharge.submittedTitle')).waitFor();
    assert.equal(await page.locator('svg[data-icon="empty"]').count(), 0, 'the empty-inbox icon on a success');
    const icon = page.locator('svg[data-icon="success"]');
    inside(await icon.boundingBox(), 'the success icon');
    await t.screenshot('recharge-success');
  });

  await t.test("old messages show their sender's avatar as it is now", async () => {
    const words = `hello ${suffix}`;
    await page.goto(t.url(`/pages/chat/conversation?conversationID=${single(a.userId, b.userId)}`));
    await page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true }).fill(words);
    await page.getByRole('button', { name: t.text('chat.composer.send') }).tap();
    await page.locator('.msg-row[data-status="2"]', { hasText: words }).waitFor();
    // a changes the avatar after the message went out (a session of its own, as another device).
    const tokens = ok(await t.api('/accountLogin', { account: a.account, password: CHAT_PASSWORD, platform: 2, operationID: `e2e${suffix}` }), 'sign-in');
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'face.png');
    const upload = await fetch(new URL('/api/user/uploadAvatar', t.baseURL), { method: 'POST', headers: { token: tokens.token }, body: form });
    const avatar = ok(await upload.json(), 'avatar upload').avatar;
    assert.ok(avatar, 'no avatar address');

    const sessionB = await t.openSession();
    const pageB = sessionB.page;
    await signInToChat(t, pageB, b);
    await pageB.goto(t.url(`/pages/chat/conversation?conversationID=${single(a.userId, b.userId)}`));
    const row = pageB.locator('.msg-row', { hasText: words });
    await row.waitFor();
    const img = row.locator('.msg-avatar img');
    await img.waitFor();
    const src = await img.getAttribute('src');
    assert.ok(src.includes(avatar.replace(/^.*\/files\//, '/files/')), `the message shows ${src}, not the new avatar ${avatar}`);
    inside(await img.boundingBox(), "the sender's avatar");
    await t.screenshot('avatar-now', pageB);
  });
}

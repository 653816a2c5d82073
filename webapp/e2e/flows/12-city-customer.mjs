// Same city and customer service, as a guest: pick a city, see listings with photos, age and
// badges, ask for a contact; chat with the agent live (the agent answers through the operator
// API), page back through older messages, and see the agent's image.
import assert from 'node:assert/strict';
import { operatorLogin, registerUser, signInThroughUi } from '../support/accounts.mjs';
import { sendToCustomerService } from '../support/customer.mjs';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

/** The visitor's conversation as the agent sees it (the most recent visitor first). */
async function findVisitor(t, operator, lastMessage) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const answer = await t.api('/admin/customer/visitors', { page: 1, pageSize: 50, all: true }, operator.token);
    assert.equal(answer.code, 0, answer.message);
    const visitor = answer.data.list.find((v) => v.lastMessage === lastMessage);
    if (visitor) return visitor;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no visitor wrote "${lastMessage}"`);
}

export default async function cityCustomer(t) {
  const { page } = t;
  let listingName = '';

  await t.test('same city: cities, listings with photos, age and badges', async () => {
    await page.goto(t.url('/pages/tabBar/city'));
    const cities = page.locator('[data-city]');
    await cities.first().waitFor();
    assert.equal(await cities.count(), 4);
    assert.equal(await cities.first().getAttribute('aria-checked'), 'true');
    const cards = page.locator('[data-listing]');
    await cards.first().waitFor();
    assert.equal(await cards.count(), 3);
    const first = cards.first();
    listingName = (await first.getByTestId('listing-name').evaluate((el) => el.firstChild.textContent)).trim();
    await first.getByTestId('listing-photo').first().waitFor();
    assert.match(await first.getByTestId('listing-age').textContent(), /\d\d/);
    assert.ok((await page.getByTestId('badge-certified').count()) > 0, 'a certified badge');
    assert.ok((await page.getByTestId('badge-deposit').count()) > 0, 'a deposit-paid badge');
    await t.screenshot('city');

    // Another city: its own listings, and the choice is in the address.
    await cities.nth(1).tap();
    await page.locator('[data-city][aria-checked="true"]').filter({ hasText: await cities.nth(1).textContent() }).waitFor();
    const city = await cities.nth(1).getAttribute('data-city');
    await page.waitForURL((url) => url.searchParams.get('city') === city);
    await page.locator('[data-listing]').first().waitFor();
    const name2 = (await page.getByTestId('listing-name').first().evaluate((el) => el.firstChild.textContent)).trim();
    assert.notEqual(name2, listingName, 'the listings changed with the city');
    listingName = name2;
  });

  await t.test('get contact opens customer service with the request written', async () => {
    await page.locator('[data-listing]').first().getByRole('link', { name: t.text('city.getContact') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/customer/customer');
    const field = page.getByRole('textbox', { name: t.text('customer.message') });
    assert.match(await field.inputValue(), new RegExp(listingName));
  });

  const operator = await operatorLogin(t);
  const hello = `hello from ${t.language} ${Date.now()}`;
  let visitor = null;

  await t.test('a guest sends a message and sees the agent reply live', async () => {
    const field = page.getByRole('textbox', { name: t.text('customer.message') });
    await sendToCustomerService(t, page, hello);
    const mine = page.locator('.bubble-row[data-from="visitor"]').filter({ hasText: hello });
    await mine.waitFor();
    await page.locator('.bubble-row[data-from="visitor"][data-state="sent"]').filter({ hasText: hello }).waitFor();
    assert.equal(await field.inputValue(), '', 'the composer is cleared');
    assert.ok(await field.evaluate((el) => el === document.activeElement), 'focus stays in the composer');

    visitor = await findVisitor(t, operator, hello);
    // The agent opens the conversation (which marks the visitor's messages read) and answers.
    const read = await t.api('/admin/customer/messages', { visitorNo: visitor.visitorNo }, operator.token);
    assert.equal(read.code, 0, read.message);
    const answer = `reply for ${t.language}`;
    const reply = await t.api('/admin/customer/reply', { visitorNo: visitor.visitorNo, content: answer }, operator.token);
    assert.equal(reply.code, 0, reply.message);
    await page.locator('.bubble-row[data-from="agent"]').filter({ hasText: answer }).waitFor();
    await page.locator('.bubble-row[data-from="visitor"][data-state="read"]').filter({ hasText: hello }).waitFor();
    await t.screenshot('customer');
  });

  await t.test('older messages load page by page when scrolling up', async () => {
    // 25 more answers: more than one page (20) of history.
    for (let i = 1; i <= 25; i += 1) {
      const r = await t.api('/admin/customer/reply', { visitorNo: visitor.visitorNo, content: `note ${i}` }, operator.token);
      assert.equal(r.code, 0, r.message);
    }
    await page.locator('.bubble-row').filter({ hasText: /^note 25/ }).waitFor();
    await page.reload();
    await page.locator('.bubble-row').filter({ hasText: /^note 25/ }).waitFor();
    const loaded = () => page.locator('.customer-page__list').getAttribute('data-loaded').then(Number);
    assert.equal(await loaded(), 20, 'the newest page only');
    assert.ok((await page.locator('.customer-page__list .bubble-row[data-id]').count()) < 20, 'only rows near the screen are in the page');
    assert.equal(await page.getByText(hello).count(), 0, 'the first message is on an older page');
    const list = page.locator('.customer-page__messages');
    // Scroll to the top until the first message is loaded.
    for (let i = 0; i < 10 && (await page.getByText(hello).count()) === 0; i += 1) {
      await list.evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.waitForTimeout(300);
    }
    await page.getByText(hello).waitFor();
    assert.ok((await loaded()) >= 27, `all pages loaded: ${await loaded()}`);
    await page.locator('.bubble--welcome').waitFor();
  });

  await t.test('an image from the agent shows and opens', async () => {
    const r = await t.api('/admin/customer/reply', { visitorNo: visitor.visitorNo, content: '/files/demo/photo-1.png' }, operator.token);
    assert.equal(r.code, 0, r.message);
    // The user is reading the oldest messages: the new one is offered, not forced on them.
    await page.getByRole('button', { name: t.text('customer.newMessages') }).tap();
    const image = page.locator('.bubble__image').last();
    await image.waitFor();
    await page.waitForFunction(() => {
      const imgs = document.querySelectorAll('.bubble__image');
      const img = imgs[imgs.length - 1];
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    });
    await page.getByRole('button', { name: t.text('customer.openImage') }).last().tap();
    await page.locator('.image-viewer img').waitFor();
    await page.locator('.image-viewer').tap();
    await page.locator('.image-viewer').waitFor({ state: 'detached' });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await t.screenshot('customer-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  await t.test('a signed-in user sends a picture; the agent gets its address', async () => {
    const user = await registerUser(t, `c${t.language.slice(0, 2)}`);
    await signInThroughUi(t, user.account, '/pages/customer/customer');
    const response = await fetch(t.url('/files/demo/photo-2.png'));
    assert.equal(response.status, 200);
    const picture = Buffer.from(await response.arrayBuffer());
    await page.getByRole('button', { name: t.text('customer.sendImage') }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    // The picture shows through a link signed for this user; the message keeps the bare path.
    const sent = page.locator('.bubble-row[data-from="visitor"][data-state="sent"] img.bubble__image[src*="/files/chat/"]');
    await sent.waitFor();
    const src = await sent.getAttribute('src');
    assert.match(src, /^\/files\/chat\/[0-9a-f]{2}\/[0-9a-f]{32}\.png\?/);
    const path = src.slice(0, src.indexOf('?'));
    await page.waitForFunction(() => {
      const img = document.querySelector('.bubble-row[data-from="visitor"][data-state="sent"] img.bubble__image[src*="/files/chat/"]');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    });
    const visitor = await findVisitor(t, operator, path);
    assert.equal(visitor.userId, user.userId, 'the chat is linked to the signed-in user');
    // Only the conversation reads it: a signed-out fetch is refused, the agent gets the same picture.
    assert.equal((await fetch(t.url(path))).status, 403);
    const stored = await fetch(t.url(path), { headers: { token: operator.token } });
    assert.equal(stored.status, 200);
    assert.equal(Buffer.compare(Buffer.from(await stored.arrayBuffer()), picture), 0, 'the agent gets the same picture');
    await t.screenshot('customer-picture');
  });
}

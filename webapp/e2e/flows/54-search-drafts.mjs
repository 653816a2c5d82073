// Search's "All" tab and drafts between real users on the real server (issue 35 #17, #20).
// A and B are friends; B's nickname is not B's account. A finds B by the account B signs in
// with, and the "All" tab lists the messages holding the words next to chats and contacts.
// A draft is saved as it is typed: A's other tab (another device) shows "[Draft]" while A is
// still in the chat, a reload finds the text in the box, and sending clears it everywhere.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single, socketCalls } from '../helpers/chat.mjs';

/** Fails unless the element's box is on screen, inside the viewport. */
async function assertInViewport(locator, what) {
  const box = await locator.boundingBox();
  const page = locator.page();
  const view = page.viewportSize();
  assert.ok(box && box.width > 0 && box.height > 0, `${what} has a box`);
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width + 0.5 && box.y + box.height <= view.height + 0.5,
    `${what} is inside the ${view.width}×${view.height} viewport: ${JSON.stringify(box)}`);
}

export default async function searchDraftsFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const a = await registerChatUser(t.baseURL, `sa${suffix}`);
  const b = await registerChatUser(t.baseURL, `sb_${suffix}`);
  const sessionB = await t.openSession();
  const pageA = t.page;
  const conversation = single(a.userId, b.userId);
  const words = `picnic${suffix}`;
  const nickname = `Bee${suffix.slice(0, 4)}`;
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });

  await t.test('"All" finds a friend by account and lists the messages holding the words', async () => {
    await signInToChat(t, pageA, a);
    await signInToChat(t, sessionB.page, b);
    // B goes by a nickname unlike the account; A and B become friends and A writes.
    await socketCalls(sessionB.page, [['SetSelfInfo', { nickname }]]);
    await socketCalls(pageA, [['AddFriend', { toUserID: b.userId, reqMsg: 'hi' }]]);
    await socketCalls(sessionB.page, [['AcceptFriendApplication', { toUserID: a.userId, handleMsg: '' }]]);
    await socketCalls(pageA, [
      ['CreateTextMessage', `bring the ${words} basket`],
      ['SendMessage', '$prev', b.userId, '', { title: '', desc: '', ex: '' }, false],
    ]);

    await pageA.goto(t.url('/pages/chat/search'));
    const field = pageA.getByRole('searchbox', { name: t.text('chat.search.placeholder') });
    const results = pageA.getByRole('list', { name: t.text('chat.search.results') });
    await field.fill(b.account.toUpperCase());
    await results.getByRole('heading', { name: t.text('chat.search.contacts') }).waitFor();
    const friendRow = results.getByRole('link').filter({ hasText: nickname });
    await friendRow.first().waitFor();
    await assertInViewport(friendRow.first(), 'the friend found by account');
    await t.screenshot('friend-by-account');

    await field.fill(words);
    await results.getByRole('heading', { name: t.text('chat.search.tabMessages') }).waitFor();
    const hit = results.getByRole('link').filter({ has: pageA.locator('mark.search-hit', { hasText: words }) });
    await hit.first().waitFor();
    await assertInViewport(hit.first(), 'the message hit in "All"');
    assert.match(await hit.first().innerText(), new RegExp(nickname));
    await t.screenshot('all-with-messages');
    await hit.first().tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation' && url.searchParams.get('conversationID') === conversation && url.searchParams.has('seq'));
    await pageA.locator('[data-focused="true"]', { hasText: words }).waitFor();
  });

  await t.test('a draft is kept as it is typed: another tab shows it at once, a reload keeps it, sending clears it', async () => {
    // A's second tab: the same sign-in on a socket of its own, as another device would be.
    const other = await t.context.newPage();
    try {
      await other.goto(t.url('/'));
      const otherRow = other.locator(`.conversation-row[data-conversation="${conversation}"]`);
      await otherRow.waitFor();

      await pageA.goto(t.url(`/pages/chat/conversation?conversationID=${conversation}`));
      const draft = `see you at ${suffix}`;
      const box = composer(pageA);
      await box.click();
      await box.pressSequentially(draft);
      // Still in the chat: the other tab's list says "[Draft]" with the text.
      await otherRow.locator('.conversation-row__preview--draft', { hasText: t.text('chat.list.draft', { text: draft }) }).waitFor();
      await assertInViewport(otherRow, 'the conversation row with the draft');
      await t.screenshot('draft-on-other-tab', other);
      const stored = await socketCalls(other, [['GetAllConversationList']]);
      assert.equal(stored.find((c) => c.conversationID === conversation)?.draftText, draft, 'the server holds the draft');

      // Typing more, then reloading at once: the box comes back with all of it.
      await box.pressSequentially(' tomorrow');
      await pageA.reload();
      await composer(pageA).waitFor();
      await pageA.waitForFunction(
        ([label, text]) => document.querySelector(`textarea[aria-label="${label}"]`)?.value === text,
        [t.text('chat.composer.placeholder'), `${draft} tomorrow`],
      );
      await otherRow.locator('.conversation-row__preview--draft', { hasText: `${draft} tomorrow` }).waitFor();

      // Sending clears it: here, in the other tab and on the server.
      await pageA.getByRole('button', { name: t.text('chat.composer.send') }).click();
      await pageA.locator('.msg-row[data-status="2"]', { hasText: `${draft} tomorrow` }).waitFor();
      await otherRow.locator('.conversation-row__preview--draft').waitFor({ state: 'detached' });
      await otherRow.getByText(`${draft} tomorrow`).waitFor();
      const after = await socketCalls(other, [['GetAllConversationList']]);
      assert.equal(after.find((c) => c.conversationID === conversation)?.draftText, '', 'the server\'s draft is cleared');
      await pageA.reload();
      await composer(pageA).waitFor();
      assert.equal(await composer(pageA).inputValue(), '');
      await t.screenshot('sent-draft-cleared', other);
    } finally {
      await other.close();
    }
  });
}

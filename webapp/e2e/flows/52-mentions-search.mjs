// @mentions and message search between real users on the real server: A (owner) makes a
// group with B and C, C mentions B through the "@" member picker; B's conversation list shows
// "[@you]" until B opens the chat, where the mention is highlighted; C's "@all" is refused
// (members may not), A's is allowed. Then B searches the messages of every chat, finds C's
// message with the words highlighted, and opens it in its chat, history loaded around it.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, socketCalls } from '../helpers/chat.mjs';

export default async function mentionsSearchFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });

  const signIn = (page, user) => signInToChat(t, page, user);

  const a = await registerChatUser(t.baseURL, `ma${suffix}`);
  const b = await registerChatUser(t.baseURL, `mb${suffix}`);
  const c = await registerChatUser(t.baseURL, `mc${suffix}`);
  const pageA = t.page;
  const sessionB = await t.openSession();
  const sessionC = await t.openSession();
  const pageB = sessionB.page;
  const pageC = sessionC.page;
  const groupName = `Lunch ${suffix}`;
  const words = `noodles ${suffix}`;
  let conversation = '';

  await t.test('C mentions B with the picker; B sees "[@you]" until B opens the chat, the mention highlighted', async () => {
    await signIn(pageA, a);
    await signIn(pageB, b);
    await signIn(pageC, c);
    const group = await socketCalls(pageA, [
      ['CreateGroup', { memberUserIDs: [b.userId, c.userId], adminUserIDs: [], groupInfo: { groupName, groupType: 2, needVerification: 2 } }],
    ]);
    conversation = `sg_${group.groupID}`;

    await pageC.goto(t.url(`/pages/chat/conversation?conversationID=${conversation}`));
    const box = composer(pageC);
    await box.click();
    await box.pressSequentially('@mb');
    const picker = pageC.getByTestId('mention-picker');
    await picker.waitFor();
    // An ordinary member is not offered "@all"; the search narrows to B.
    assert.equal(await picker.getByRole('button', { name: `@${t.text('chat.mention.all')}` }).count(), 0);
    await t.screenshot('picker', pageC);
    await picker.getByRole('button', { name: b.nickname }).tap();
    await box.pressSequentially(`want ${words}?`);
    assert.equal(await box.inputValue(), `@${b.nickname} want ${words}?`);
    await pageC.getByRole('button', { name: t.text('chat.composer.send') }).click();
    await pageC.locator('.msg-row[data-status="2"]', { hasText: words }).waitFor();

    const row = pageB.locator('.conversation-row', { hasText: groupName });
    await row.getByTestId('mention-mark').filter({ hasText: t.text('chat.mention.you') }).waitFor();
    await t.screenshot('mentioned-list', pageB);
    await row.tap();
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    const mention = pageB.locator('.msg-row', { hasText: words }).getByTestId('mention');
    await mention.filter({ hasText: `@${b.nickname}` }).waitFor();
    assert.match(await mention.first().getAttribute('class'), /msg-mention--self/);
    await t.screenshot('mention-highlighted', pageB);
    await pageB.goBack();
    await pageB.locator('.conversation-row', { hasText: groupName }).waitFor();
    // Read: the mark is gone, and stays gone after a reload (the server's state).
    await row.getByTestId('mention-mark').waitFor({ state: 'detached' });
    await pageB.reload();
    await pageB.locator('.conversation-row', { hasText: groupName }).waitFor();
    assert.equal(await row.getByTestId('mention-mark').count(), 0);
  });

  await t.test('@all: refused from a member with the translated reason, allowed from the owner', async () => {
    // The app does not offer it; typed by hand it is plain text, so ask the server directly.
    const refused = await socketCalls(pageC, [
      ['CreateTextAtMessage', '@all hi', ['AtAllTag'], [], ''],
      ['SendMessage', '$prev', '', conversation.slice(3), { title: '', desc: '', ex: '' }, false],
    ]).then(
      () => null,
      (error) => String(error),
    );
    assert.match(refused ?? '', /1346/);

    // C leaves the chat first: a message arriving while it is open is read at once.
    await pageC.goto(t.url('/'));
    await pageC.locator('.conversation-row', { hasText: groupName }).waitFor();
    await pageA.goto(t.url(`/pages/chat/conversation?conversationID=${conversation}`));
    const ownerBox = composer(pageA);
    await ownerBox.click();
    await ownerBox.pressSequentially('@');
    const all = pageA.getByTestId('mention-picker').getByRole('button', { name: `@${t.text('chat.mention.all')}` });
    await all.tap();
    await ownerBox.pressSequentially('meeting');
    await pageA.getByRole('button', { name: t.text('chat.composer.send') }).click();
    await pageA.locator('.msg-row[data-status="2"]', { hasText: 'meeting' }).waitFor();
    // C was named by everyone: "[@all]" in C's list.
    await pageC
      .locator('.conversation-row', { hasText: groupName })
      .getByTestId('mention-mark')
      .filter({ hasText: t.text('chat.mention.everyone') })
      .waitFor();
    await t.screenshot('mentioned-all', pageC);
  });

  await t.test('B searches messages: the match highlighted under its chat, opened in context', async () => {
    // Enough later messages that the match is outside the newest page B's chat opens with,
    // sent over two sockets: 20 messages are 40 calls, within one socket's request burst
    // (60, refilled at 30/s), which 80 calls from one socket outran once sends were answered
    // faster than that.
    for (let half = 0; half < 2; half += 1) {
      const later = [];
      for (let i = 20 * half; i < 20 * half + 20; i += 1) {
        later.push(['CreateTextMessage', `later ${i}`]);
        later.push(['SendMessage', '$prev', '', conversation.slice(3), { title: '', desc: '', ex: '' }, false]);
      }
      await socketCalls(pageA, later);
    }
    await pageB.goto(t.url('/pages/chat/search?tab=messages'));
    const field = pageB.getByRole('searchbox', { name: t.text('chat.search.messagesPlaceholder') });
    await field.fill(suffix);
    const results = pageB.getByTestId('message-results');
    const section = results.locator(`section[data-conversation="${conversation}"]`);
    // Both the nickname mentioned and the words hold the number searched for: both are marked.
    const link = section.getByRole('link').filter({ hasText: words });
    await link.locator('mark.search-hit', { hasText: suffix }).nth(1).waitFor();
    await section.getByRole('heading', { name: groupName }).waitFor();
    await t.screenshot('search-results', pageB);
    await link.tap();
    // The conversation opens inside the app (no load event to wait for); finding the message
    // loads the history around it, a few calls that a box busy with other flows can slow.
    await pageB.waitForURL((url) => url.pathname === '/pages/chat/conversation' && url.searchParams.has('seq'), { waitUntil: 'commit' });
    const focused = pageB.locator('[data-focused="true"]');
    await focused.filter({ hasText: words }).waitFor({ timeout: 20_000 });
    await focused.filter({ hasText: words }).evaluate((el) => {
      const list = el.closest('[data-testid="message-list"]');
      const box = el.getBoundingClientRect();
      const view = list.getBoundingClientRect();
      if (box.bottom < view.top || box.top > view.bottom) throw new Error('the found message is not in view');
    });
    // History around it: the message before (the group's notices) and after it are loaded.
    await pageB.locator('.msg-text', { hasText: 'later 0' }).waitFor();
    await t.screenshot('opened-in-context', pageB);
  });
}

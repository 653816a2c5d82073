// Reactions and edits (issue 36 #3) between two real users on the real server: B reacts to A's
// message and A sees the count, and who, on a tap; A edits a message and B sees the new text
// marked "edited", still after a reload; B taps a reply's quote and the original, far up in the
// history, is loaded and brought into view; scrolled up there, a new message offers
// "new messages ↓", which goes down to it. Consecutive messages of one sender share one avatar.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single, socketCalls } from '../helpers/chat.mjs';

/** How many messages stand between the original and the reply: more than the first page (30). */
const FILLERS = 40;

export default async function reactionsEditsFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const a = await registerChatUser(t.baseURL, `ea${suffix}`);
  const b = await registerChatUser(t.baseURL, `eb${suffix}`);
  const pageA = t.page;
  const sessionB = await t.openSession();
  const pageB = sessionB.page;
  const conversation = single(a.userId, b.userId);
  const chatURL = t.url(`/pages/chat/conversation?conversationID=${conversation}`);
  const original = `the original ${suffix}`;
  const reply = `the reply ${suffix}`;
  const typo = `see you at 5 ${suffix}`;
  const fixed = `see you at 6 ${suffix}`;
  const bubble = (page, text) => page.locator('.msg-row', { hasText: text }).locator('.msg-bubble');
  const sheetButton = (page, name) => page.locator('.chat-sheet').getByRole('button', { name, exact: true });

  await t.test('B reacts to A\'s message; A sees the count and, on a tap, who reacted', async () => {
    await signInToChat(t, pageA, a);
    await signInToChat(t, pageB, b);
    // History through a socket of A's: the original, many messages, then a reply quoting it.
    const stored = await socketCalls(pageA, [['CreateTextMessage', original], ['SendMessage', '$prev', b.userId, '', {}, false]]);
    // In batches on sockets of their own: one socket may make 60 calls in a burst (1306 beyond).
    for (let from = 1; from <= FILLERS; from += 20) {
      const calls = [];
      for (let i = from; i < from + 20 && i <= FILLERS; i += 1) calls.push(['CreateTextMessage', `filler ${i} ${suffix}`], ['SendMessage', '$prev', b.userId, '', {}, false]);
      await socketCalls(pageA, calls);
    }
    await socketCalls(pageA, [['CreateQuoteMessage', reply, stored], ['SendMessage', '$prev', b.userId, '', {}, false]]);

    await pageA.goto(chatURL);
    await pageB.goto(chatURL);
    await bubble(pageB, reply).waitFor();
    // A run of A's messages: the avatar once, a time on each.
    const lastFillers = pageB.locator('.msg-line--grouped', { hasText: `filler ${FILLERS} ${suffix}` });
    await lastFillers.waitFor();
    assert.equal(await lastFillers.locator('a.msg-avatar').count(), 0);
    assert.equal(await pageB.locator('.msg-row', { hasText: `filler ${FILLERS} ${suffix}` }).locator('time.msg-time').count(), 1);

    await bubble(pageB, reply).click({ button: 'right' });
    await sheetButton(pageB, t.text('chat.message.react')).click();
    await sheetButton(pageB, '👍').click();
    await pageB.locator('.msg-row', { hasText: reply }).locator('.msg-reaction--mine[data-emoji="👍"]').waitFor();

    const chip = pageA.locator('.msg-row', { hasText: reply }).locator('.msg-reaction[data-emoji="👍"]');
    await chip.filter({ hasText: '1' }).waitFor();
    await t.screenshot('reacted');
    await chip.click();
    await pageA.locator('.chat-sheet__title', { hasText: t.text('chat.message.reactedWith', { emoji: '👍' }) }).waitFor();
    await sheetButton(pageA, b.nickname).waitFor();
    await t.screenshot('who-reacted');
    await pageA.keyboard.press('Escape');
  });

  await t.test('A edits a message; B sees the new text marked "edited", after a reload too', async () => {
    const composer = pageA.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
    await composer.fill(typo);
    await pageA.getByRole('button', { name: t.text('chat.composer.send') }).tap();
    await pageA.locator('.msg-row[data-status="2"]', { hasText: typo }).waitFor();
    await bubble(pageB, typo).waitFor();

    await bubble(pageA, typo).click({ button: 'right' });
    await sheetButton(pageA, t.text('chat.message.edit')).click();
    const box = pageA.getByRole('textbox', { name: t.text('chat.message.editTitle') });
    await box.fill(fixed);
    await pageA.getByTestId('edit-save').click();
    await pageA.locator('.msg-row', { hasText: fixed }).getByTestId('edited').waitFor();

    const rowB = pageB.locator('.msg-row', { hasText: fixed });
    await rowB.getByTestId('edited').filter({ hasText: t.text('chat.message.edited') }).waitFor();
    assert.equal(await pageB.locator('.msg-row', { hasText: typo }).count(), 0);
    await t.screenshot('edited', pageB);

    // The current state comes with the history: no replay needed after a reload.
    await pageB.reload();
    await pageB.locator('.msg-row', { hasText: fixed }).getByTestId('edited').waitFor();
    await pageB.locator('.msg-row', { hasText: reply }).locator('.msg-reaction--mine[data-emoji="👍"]').filter({ hasText: '1' }).waitFor();
  });

  await t.test('tapping a quote jumps to the original; a new message then offers "new messages ↓"', async () => {
    await pageB.locator('.msg-row', { hasText: reply }).getByTestId('quote-jump').click();
    const focused = pageB.locator('.msg-list__item--focus', { hasText: original });
    await focused.waitFor();
    await t.screenshot('jumped', pageB);

    // Scrolled up at the original: a message arriving below offers the way down.
    const late = `while you read up there ${suffix}`;
    await socketCalls(pageA, [['CreateTextMessage', late], ['SendMessage', '$prev', b.userId, '', {}, false]]);
    const down = pageB.getByTestId('new-messages');
    await down.filter({ hasText: t.text('chat.conversation.newMessages') }).waitFor();
    await t.screenshot('new-messages', pageB);
    await down.click();
    await bubble(pageB, late).waitFor();
    await down.waitFor({ state: 'detached' });
  });
}

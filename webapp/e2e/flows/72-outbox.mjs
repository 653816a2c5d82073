// The outbox (issue 36 #2) between real users on the real server: A loses the network, writes
// two messages, reloads the page (the app comes from the service worker's cache), and gets the
// network back: B gets both, once each, in the order written. Messages the server refuses (B
// blocked A meanwhile) stay failed on A's screen: one is tried again once B unblocks and
// arrives, the other is deleted and never arrives, not even after a reload.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single, socketCalls } from '../helpers/chat.mjs';

export default async function outboxFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const a = await registerChatUser(t.baseURL, `oa${suffix}`);
  const b = await registerChatUser(t.baseURL, `ob${suffix}`);
  const pageA = t.page;
  const sessionB = await t.openSession();
  const pageB = sessionB.page;
  const conversation = single(a.userId, b.userId);
  const chatURL = t.url(`/pages/chat/conversation?conversationID=${conversation}`);
  const composer = pageA.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
  const write = async (text) => {
    await composer.fill(text);
    await pageA.getByRole('button', { name: t.text('chat.composer.send') }).tap();
    await pageA.locator('.msg-line--mine .msg-text', { hasText: text }).waitFor();
  };
  /** What B's store holds of the conversation: the texts, oldest first (a socket of B's own). */
  const storedAtB = async () => {
    const page = await socketCalls(pageB, [['GetAdvancedHistoryMessageList', { conversationID: conversation, count: 50, startClientMsgID: '', lastMinSeq: 0 }]]);
    return page.messageList.map((m) => m.textElem?.content).filter(Boolean);
  };
  const first = `first while offline ${suffix}`;
  const second = `second while offline ${suffix}`;

  // While the network is off the browser logs every request it cannot make (the socket's
  // reconnects, the app's start-up calls after the reload) as a console error, which the run
  // counts against the test it falls in. So the offline steps run between the tests, and the
  // tests check what they leave: each step throws, and fails the flow, if it does not happen.
  /**
   * Runs steps with A's network off (B's browser keeps its own). It returns once A's socket is
   * connected again: a reconnect dialled as the network came back fails with
   * ERR_INTERNET_DISCONNECTED a moment after setOffline(false), and its console error must land
   * here, not in the test that follows (a test sees the error as its own and fails).
   */
  const offline = async (steps) => {
    await t.context.setOffline(true);
    try {
      await steps();
    } finally {
      await t.context.setOffline(false);
    }
    await pageA.locator('[data-testid="chat-connecting"]').waitFor({ state: 'detached', timeout: 30_000 });
  };

  await t.test('A and B chat, and the app is kept for use without the network', async () => {
    await signInToChat(t, pageA, a);
    await signInToChat(t, pageB, b);
    await pageA.goto(chatURL);
    await write(`hello ${suffix}`);
    await pageB.goto(chatURL);
    await pageB.locator('.msg-text', { hasText: `hello ${suffix}` }).waitFor();
    // The service worker must hold the app before the network goes.
    await pageA.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await pageA.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });

  let keptOverReload = [];
  await offline(async () => {
    await write(first);
    await write(second);
    await pageA.locator('.msg-line--mine .msg-status--sending').nth(1).waitFor();
    await t.screenshot('written-offline');
    await pageA.reload();
    await pageA.locator('#root main').first().waitFor();
    const kept = await pageA.evaluate(() => JSON.parse(localStorage.getItem('chatOutbox') ?? '{}'));
    keptOverReload = Object.values(kept).flat().map((e) => [e.message.textElem.content, e.message.clientMsgID]);
  });

  await t.test('written offline, kept over a reload, sent once each in order when back online', async () => {
    assert.deepEqual(keptOverReload.map(([text]) => text), [first, second], 'the outbox after the reload');
    // Back online: the socket signs in and the outbox goes, in order, with the ids it was given.
    await pageB.locator('.msg-text', { hasText: second }).waitFor();
    await pageA.locator('.msg-line--mine .msg-text', { hasText: second }).waitFor();
    const atB = (await pageB.locator('.msg-text').allTextContents()).filter((x) => x.includes(suffix));
    assert.deepEqual(atB, [`hello ${suffix}`, first, second], 'B sees each once, in order');
    await pageA.waitForFunction(() => localStorage.getItem('chatOutbox') === null);
    await pageA.waitForFunction(() => document.querySelector('.msg-status--sending') === null);
    const page = await socketCalls(pageB, [['GetAdvancedHistoryMessageList', { conversationID: conversation, count: 50, startClientMsgID: '', lastMinSeq: 0 }]]);
    const mine = page.messageList.filter((m) => m.textElem?.content.includes('while offline'));
    assert.deepEqual(mine.map((m) => [m.textElem.content, m.clientMsgID]), keptOverReload, 'stored once each, with the outbox ids');
    await t.screenshot('sent');
  });

  const retried = `tried again ${suffix}`;
  const dropped = `deleted ${suffix}`;
  await socketCalls(pageB, [['AddBlack', a.userId, '']]);
  await offline(async () => {
    await write(retried);
    await write(dropped);
  });

  await t.test('a message refused on the way stays failed: tried again it arrives, deleted it never does', async () => {
    const failed = pageA.locator('.msg-row[data-status="3"]');
    await failed.filter({ hasText: dropped }).locator('.msg-failure').waitFor();
    await failed.filter({ hasText: retried }).locator('.msg-failure').waitFor();
    assert.equal(await failed.filter({ hasText: retried }).locator('.msg-failure').innerText(), t.text('chat.errors.blacklisted'));
    await t.screenshot('refused');

    await socketCalls(pageB, [['RemoveBlack', a.userId]]);
    await failed.filter({ hasText: retried }).getByRole('button', { name: t.text('chat.message.retry') }).tap();
    await pageB.locator('.msg-text', { hasText: retried }).waitFor();

    await pageA.locator('.msg-bubble', { hasText: dropped }).click({ button: 'right' });
    await pageA.getByRole('button', { name: t.text('chat.message.delete') }).tap();
    await pageA.locator('.msg-text', { hasText: dropped }).waitFor({ state: 'detached' });
    await pageA.reload();
    await pageA.locator('.msg-text', { hasText: retried }).waitFor();
    assert.equal(await pageA.locator('.msg-text', { hasText: dropped }).count(), 0, 'a deleted message is not back after a reload');
    assert.deepEqual(await storedAtB(), [`hello ${suffix}`, first, second, retried], 'B never got the deleted one');
  });
}

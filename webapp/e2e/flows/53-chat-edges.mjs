// The rough edges of chat between real users on a 390 x 844 phone: the emoji panel's eight
// columns on screen and an emoji put into the text (sent with it, not on its own); one's own
// "@name" readable on one's own blue bubble; a muted member's box disabled with the reason and
// the minutes left, opened again by the unmute push; a channel's first line says a channel was
// made, and "you" sits in the Chinese notices without a stray space; a sent friend request shows
// as waiting on the profile and its whole message in New friends; a 2,000-character message
// folded with "Read more"; and signing out says nothing about an expired chat sign-in.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { registerChatUser, signInToChat, single, socketCalls } from '../helpers/chat.mjs';

const VIEW = { width: 390, height: 844 };

/** Fails unless `box` lies within the 390 x 844 viewport. */
function assertInView(box, what) {
  assert.ok(box, `${what} is not laid out`);
  assert.ok(box.x >= -0.5 && box.y >= -0.5, `${what} starts off screen: ${JSON.stringify(box)}`);
  assert.ok(box.x + box.width <= VIEW.width + 0.5, `${what} ends past the right edge: ${JSON.stringify(box)}`);
  assert.ok(box.y + box.height <= VIEW.height + 0.5, `${what} ends below the screen: ${JSON.stringify(box)}`);
}

/** The WCAG contrast ratio of two computed CSS colours ("rgb(r, g, b)"). */
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = css
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export default async function chatEdgesFlow(t) {
  const suffix = String(randomInt(100000, 999999));
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
  const sendButton = (page) => page.getByRole('button', { name: t.text('chat.composer.send') });
  const signIn = (page, user) => signInToChat(t, page, user);
  const chatURL = (id) => t.url(`/pages/chat/conversation?conversationID=${id}`);

  const a = await registerChatUser(t.baseURL, `ea${suffix}`);
  const b = await registerChatUser(t.baseURL, `eb${suffix}`);
  const c = await registerChatUser(t.baseURL, `ec${suffix}`);
  const pageA = t.page;
  const sessionB = await t.openSession();
  const pageB = sessionB.page;
  await signIn(pageA, a);
  await signIn(pageB, b);
  let groupID = '';

  await t.test('the emoji panel shows all eight columns, and an emoji goes into the text to be sent with it', async () => {
    await pageA.goto(chatURL(single(a.userId, b.userId)));
    const box = composer(pageA);
    await box.fill(`see you ${suffix}`);
    await pageA.getByRole('button', { name: t.text('chat.composer.faces') }).tap();
    const panel = pageA.getByRole('group', { name: t.text('chat.composer.faces') });
    const faces = panel.getByRole('button');
    assert.equal(await faces.count(), 24);
    for (const face of await faces.all()) assertInView(await face.boundingBox(), `the emoji ${await face.textContent()}`);
    // Eight to a row: the 8th of the first row is the rightmost, still on screen.
    const tops = await faces.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    assert.equal(tops.filter((top) => top === tops[0]).length, 8);
    await t.screenshot('emoji-panel');

    await panel.getByRole('button', { name: t.text('chat.composer.insertFace', { face: '👍' }) }).tap();
    assert.equal(await box.inputValue(), `see you ${suffix}👍`);
    // Nothing went out on its own.
    assert.equal(await pageA.locator('.msg-row').count(), 0);
    await sendButton(pageA).tap();
    await pageA.locator('.msg-row[data-status="2"]', { hasText: `see you ${suffix}👍` }).waitFor();
    assert.equal(await pageA.locator('.msg-face').count(), 0);
  });

  await t.test('a 2,000-character message is folded with "Read more" and opens in full', async () => {
    const long = `${suffix} ${'long words '.repeat(200)}`.slice(0, 1999) + '.';
    await composer(pageA).fill(long);
    await sendButton(pageA).tap();
    const row = pageA.locator('.msg-row[data-status="2"]', { hasText: suffix }).last();
    await row.locator('.msg-long').waitFor();
    const bubble = row.locator('.msg-bubble');
    const folded = await bubble.boundingBox();
    assert.ok(folded.height < VIEW.height / 2, `a folded bubble is ${folded.height}px tall`);
    const more = row.getByRole('button', { name: t.text('chat.message.readMore') });
    assertInView(await more.boundingBox(), 'Read more');
    await t.screenshot('long-folded');
    await more.tap();
    await row.getByRole('button', { name: t.text('chat.message.showLess') }).waitFor();
    const open = await bubble.boundingBox();
    assert.ok(open.height > folded.height * 2, `opened ${open.height}px, folded ${folded.height}px`);
    assert.equal((await row.locator('.msg-text').textContent()).length, long.length);
  });

  await t.test('one\'s own @mention reads on one\'s own bubble', async () => {
    const group = await socketCalls(pageA, [
      ['CreateGroup', { memberUserIDs: [b.userId, c.userId], adminUserIDs: [], groupInfo: { groupName: `Edges ${suffix}`, groupType: 2, needVerification: 2 } }],
    ]);
    groupID = group.groupID;
    await pageA.goto(chatURL(`sg_${groupID}`));
    const box = composer(pageA);
    await box.click();
    await box.pressSequentially('@eb');
    await pageA.getByTestId('mention-picker').getByRole('button', { name: b.nickname }).tap();
    await box.pressSequentially('lunch?');
    await sendButton(pageA).click();
    const mention = pageA.locator('.msg-row[data-status="2"]', { hasText: 'lunch?' }).getByTestId('mention');
    await mention.waitFor();
    const [text, background] = await mention.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el.closest('.msg-bubble')).backgroundColor]);
    const ratio = contrast(text, background);
    assert.ok(ratio >= 4.5, `the mention ${text} on the bubble ${background}: contrast ${ratio.toFixed(2)}`);
    await t.screenshot('own-mention');
  });

  await t.test('a muted member\'s box is disabled with the reason and the minutes left, and opens on the unmute', async () => {
    await pageB.goto(chatURL(`sg_${groupID}`));
    const box = composer(pageB);
    await box.waitFor();
    assert.equal(await box.isEnabled(), true);
    await socketCalls(pageA, [['ChangeGroupMemberMute', groupID, b.userId, 600]]);
    const reason = t.text('chat.conversation.mutedFor', { time: t.text('chat.duration.minutes', { count: 10 }) });
    const notice = pageB.getByTestId('conversation-notice');
    await notice.filter({ hasText: reason }).waitFor();
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === true);
    assert.equal(await box.getAttribute('placeholder'), reason);
    assert.equal(await pageB.getByRole('button', { name: t.text('chat.composer.faces') }).isDisabled(), true);
    // The notice of the mute: "you" joined to the Chinese words without a space.
    const muted = t.text('chat.notice.memberMuted', {
      name: a.nickname,
      target: t.text('chat.notice.youObject'),
      duration: t.text('chat.duration.minutes', { count: 10 }),
    });
    await pageB.getByText(muted, { exact: true }).waitFor();
    if (t.language === 'zh-CN') assert.ok(muted.includes('将你禁言'), muted);
    await t.screenshot('muted', pageB);

    await socketCalls(pageA, [['ChangeGroupMemberMute', groupID, b.userId, 0]]);
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === false);
    assert.equal(await notice.count(), 0);
    await box.fill(`free again ${suffix}`);
    await sendButton(pageB).tap();
    await pageB.locator('.msg-row[data-status="2"]', { hasText: `free again ${suffix}` }).waitFor();

    // Everyone muted: the reason without a time, lifted the same way.
    await socketCalls(pageA, [['ChangeGroupMute', groupID, true]]);
    await notice.filter({ hasText: t.text('chat.errors.groupMuted') }).waitFor();
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === true);
    await socketCalls(pageA, [['ChangeGroupMute', groupID, false]]);
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === false);
  });

  await t.test('a mute that runs out says "your mute has ended" without a stray space', async () => {
    await socketCalls(pageA, [['ChangeGroupMemberMute', groupID, b.userId, 2]]);
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === true);
    const ended = t.text('chat.notice.memberMuteEnded', { name: t.text('chat.notice.you') });
    await pageB.getByText(ended, { exact: true }).waitFor({ timeout: 20_000 });
    if (t.language === 'zh-CN') assert.equal(ended, '你的禁言已结束');
    await pageB.waitForFunction(() => document.querySelector('textarea[name="message"]')?.disabled === false);
  });

  await t.test('a channel\'s first line says a channel was created', async () => {
    const channel = await socketCalls(pageA, [
      ['CreateGroup', { memberUserIDs: [b.userId], adminUserIDs: [], groupInfo: { groupName: `News ${suffix}`, groupType: 3, needVerification: 2 } }],
    ]);
    await pageA.goto(chatURL(`sg_${channel.groupID}`));
    const created = t.text('chat.notice.channelCreated', { name: t.text('chat.notice.you') });
    await pageA.getByText(created, { exact: true }).waitFor();
    if (t.language === 'zh-CN') assert.equal(created, '你创建了频道');
    if (t.language === 'en-US') assert.equal(created, 'You created the channel');
  });

  await t.test('a sent friend request waits on the profile, and New friends shows its whole message', async () => {
    const message = `Hello ${a.nickname}, this is ${c.nickname} from the lunch group. We met last week and I would like to keep in touch about the trip ${suffix}.`;
    const sessionC = await t.openSession();
    const pageC = sessionC.page;
    await signIn(pageC, c);
    await pageC.goto(t.url(`/pages/chat/user-info?userID=${a.userId}`));
    await pageC.getByRole('button', { name: t.text('chat.userInfo.addFriend') }).tap();
    await pageC.waitForURL((url) => url.pathname === '/pages/chat/friend-verify');
    await pageC.getByLabel(t.text('chat.friendVerify.label')).fill(message);
    await pageC.getByRole('button', { name: t.text('chat.friendVerify.send') }).tap();
    await pageC.waitForURL((url) => url.pathname === '/pages/chat/user-info');
    const pending = pageC.getByRole('button', { name: t.text('chat.userInfo.requestPending') });
    await pending.waitFor();
    assert.equal(await pending.isDisabled(), true);
    assert.equal(await pageC.getByRole('button', { name: t.text('chat.userInfo.addFriend') }).count(), 0);
    await t.screenshot('request-pending', pageC);
    // Still so after a reload: it is the server's list of my requests.
    await pageC.reload();
    await pending.waitFor();

    await pageA.goto(t.url('/pages/chat/new-friend'));
    const subtitle = pageA.locator(`.request-row[data-user="${c.userId}"] .chat-row__subtitle`);
    await subtitle.waitFor();
    assert.equal(await subtitle.textContent(), message);
    const clipped = await subtitle.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    assert.equal(clipped, false, 'the verification message is cut off');
    assertInView(await subtitle.boundingBox(), 'the verification message');
    await t.screenshot('new-friends');
  });

  await t.test('signing out says nothing about an expired chat sign-in', async () => {
    await pageA.goto(t.url('/pages/tabBar/mine'));
    // Every toast shown from here on, even one gone again before a check could look.
    await pageA.evaluate(() => {
      window.__toasts = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.toast')) window.__toasts.push(el.textContent);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await pageA.getByRole('button', { name: t.text('pages.mine.signOut'), exact: true }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/auth/login');
    // The socket's end arrives after the page changed; give it the time it took before.
    await pageA.waitForFunction(() => localStorage.getItem('wsToken') === null);
    await pageA.waitForTimeout(1_500);
    const toasts = await pageA.evaluate(() => window.__toasts);
    assert.ok(!toasts.includes(t.text('chat.connection.expired')), `toasts: ${JSON.stringify(toasts)}`);
    assert.deepEqual(toasts, []);
  });
}

// The web app through a cluster's load balancer (issue 18): two users on a multi-node
// cluster sign in, befriend each other and chat; then the node holding the first user's
// socket drains (SIGTERM), the page reconnects through the load balancer to another node and
// still gets what the other user sends. Run by `scripts/cluster.sh --check`, which passes the
// nodes in E2E_CLUSTER_NODES: [{"name", "url", "metrics", "pid"}].
import assert from 'node:assert/strict';
import { flowAddress, registerUser, uniqueName } from '../helpers/accounts.mjs';
import { CHAT_PASSWORD as PASSWORD, signInToChat } from '../helpers/chat.mjs';

function clusterNodes() {
  const nodes = JSON.parse(process.env.E2E_CLUSTER_NODES || '[]');
  if (!Array.isArray(nodes) || nodes.length < 2) {
    throw new Error('E2E_CLUSTER_NODES must list at least two nodes: run this flow with scripts/cluster.sh --check');
  }
  return nodes;
}

/** Open chat sockets of one node, from its kj_chat_connections gauge; null when it is down. */
async function socketsOf(node) {
  try {
    const response = await fetch(`${node.metrics}/metrics`, { signal: AbortSignal.timeout(2_000) });
    const match = /^kj_chat_connections (\S+)$/m.exec(await response.text());
    return match ? Number(match[1]) : 0;
  } catch {
    return null;
  }
}

async function eventually(what, check, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export default async function loadBalancerFlow(t) {
  const nodes = clusterNodes();
  const address = flowAddress();
  const a = { account: uniqueName('lba') };
  const b = { account: uniqueName('lbb') };
  for (const user of [a, b]) await registerUser(t.baseURL, { account: user.account, password: PASSWORD, address });
  const composer = (page) => page.getByRole('textbox', { name: t.text('chat.composer.placeholder'), exact: true });
  const pageA = t.page;
  const pageB = (await t.openSession()).page;
  const counts = () => Promise.all(nodes.map(socketsOf));
  const total = (list) => list.reduce((sum, n) => sum + (n ?? 0), 0);
  let nodeOfA = null;
  // The check cluster is fresh: the sockets counted are these two users' and the baseline's.
  let baseline = 0;

  const signIn = (page, user) => signInToChat(t, page, user);

  async function sendText(page, text) {
    await composer(page).fill(text);
    await page.getByRole('button', { name: t.text('chat.composer.send') }).click();
    await page.locator('.msg-row[data-status="2"]', { hasText: text }).last().waitFor();
  }

  await t.test('both users sign in through the load balancer and hold a chat socket on a node', async () => {
    const before = await counts();
    baseline = total(before);
    await signIn(pageA, a);
    const withA = await eventually('A has a socket', async () => {
      const now = await counts();
      return total(now) === total(before) + 1 ? now : null;
    });
    nodeOfA = nodes[withA.findIndex((n, i) => (n ?? 0) > (before[i] ?? 0))];
    assert.ok(nodeOfA, 'one node gained A’s socket');
    await signIn(pageB, b);
    await eventually('B has a socket', async () => total(await counts()) === total(before) + 2);
  });

  await t.test('A befriends B and they chat both ways', async () => {
    await pageA.goto(t.url('/pages/chat/add-friend'));
    await pageA.getByLabel(t.text('chat.addFriend.searchPlaceholder')).fill(b.account);
    await pageA.getByRole('button', { name: t.text('chat.addFriend.search') }).tap();
    await pageA.getByRole('list', { name: t.text('chat.addFriend.results') }).getByText(b.account, { exact: true }).tap();
    await pageA.getByRole('button', { name: t.text('chat.userInfo.addFriend') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/friend-verify');
    await pageA.getByLabel(t.text('chat.friendVerify.label')).fill(`hello from ${a.account}`);
    await pageA.getByRole('button', { name: t.text('chat.friendVerify.send') }).tap();
    await pageA.locator('.toast').filter({ hasText: t.text('chat.friendVerify.sent') }).waitFor();

    await pageB.goto(t.url('/pages/chat/contacts'));
    await pageB.getByRole('link', { name: t.text('chat.newFriend.title') }).tap();
    const request = pageB.locator('.request-row', { hasText: `hello from ${a.account}` });
    await request.getByRole('button', { name: t.text('chat.newFriend.accept') }).tap();
    await request.getByText(t.text('chat.newFriend.added')).waitFor();

    await pageA.goto(t.url('/pages/chat/contacts'));
    await pageA.getByRole('link', { name: b.account }).tap();
    await pageA.getByRole('button', { name: t.text('chat.userInfo.sendMessage') }).tap();
    await pageA.waitForURL((url) => url.pathname === '/pages/chat/conversation');
    await sendText(pageA, 'first through the balancer');

    await pageB.goto(t.url('/'));
    await pageB.locator('.conversation-row', { hasText: a.account }).first().tap();
    await pageB.locator('.msg-text', { hasText: 'first through the balancer' }).waitFor();
    await sendText(pageB, 'answer through the balancer');
    await pageA.locator('.msg-text', { hasText: 'answer through the balancer' }).waitFor();
  });

  await t.test('A’s node drains; A’s page reconnects to another node and gets B’s next messages', async () => {
    assert.ok(nodeOfA, 'the first test found A’s node');
    process.kill(nodeOfA.pid, 'SIGTERM');
    await eventually(`${nodeOfA.name} is gone`, async () => (await socketsOf(nodeOfA)) === null, 30_000);
    // Both sockets are open again, on the nodes left.
    await eventually('both users reconnected to the other nodes', async () => total(await counts()) === baseline + 2, 30_000);
    await sendText(pageB, 'after the drain');
    await pageA.locator('.msg-text', { hasText: 'after the drain' }).waitFor();
    await sendText(pageA, 'reply after the drain');
    await pageB.locator('.msg-text', { hasText: 'reply after the drain' }).waitFor();
    await t.screenshot('after-drain');
  });
}

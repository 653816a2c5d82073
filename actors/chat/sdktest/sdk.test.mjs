// Conformance of the chat gateway with the published OpenIM JS SDK
// (open-im-sdk 3.5.2, unmodified): a real `kj serve` on a fresh embedded
// store, users signed up through the HTTP API, the SDK driving every call
// over the websocket.
//
//   KJ_BIN=bin/kj node --experimental-websocket --test actors/chat/sdktest/sdk.test.mjs
//
// Without KJ_BIN the binary is built with `go build` first. Node 20 needs
// --experimental-websocket; Node 22+ has a global WebSocket.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { OpenIMSDK, CbEvents } from 'open-im-sdk';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const password = 'abc123';
const suffix = String(Date.now() % 1e6);

/** A `kj serve` process on a free port and a fresh data directory. */
class Server {
  constructor(bin, dataDir, port, env = {}) {
    this.bin = bin;
    this.dataDir = dataDir;
    this.port = port;
    this.env = env; // variables of its own, over the suite's
    this.base = `http://127.0.0.1:${port}`;
    this.ws = `ws://127.0.0.1:${port}/ws`;
    this.log = '';
  }

  async start() {
    this.proc = spawn(this.bin, ['serve'], {
      env: {
        ...process.env,
        KJ_ADDR: `127.0.0.1:${this.port}`,
        KJ_DATA_DIR: this.dataDir,
        KJ_DATABASE_URL: '',
        KJ_REDIS_URL: '',
        KJ_NATS_URL: '',
        KJ_LOG_LEVEL: 'warn',
        KJ_SHUTDOWN_TIMEOUT: '5s',
        // Short, so the reactions-and-edits case sees an edit refused as too late.
        KJ_CHAT_EDIT_WINDOW: '4s',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc.stdout.on('data', (b) => (this.log += b));
    this.proc.stderr.on('data', (b) => (this.log += b));
    this.exited = new Promise((resolve) => this.proc.on('exit', resolve));
    const deadline = Date.now() + 30000;
    for (;;) {
      try {
        const r = await fetch(`${this.base}/healthz`);
        if (r.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`kj did not start:\n${this.log}`);
      await sleep(50);
    }
  }

  /** SIGTERM: the node drains, closing sockets with a reason. */
  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    this.proc.kill('SIGTERM');
    await this.exited;
  }

  async api(path, body) {
    const r = await fetch(`${this.base}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
      body: JSON.stringify(body),
    });
    return r.json();
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Rejects when p takes longer than ms (a request on a closed SDK socket never settles). */
function within(p, ms, what) {
  let timer;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms);
    }),
  ]);
}

/** The error of a rejected SDK call ({event, errCode, errMsg, operationID}). */
async function rejection(p) {
  try {
    await within(p, 10000, 'a call that should fail');
  } catch (e) {
    return e;
  }
  throw new Error('the call succeeded');
}

/** A signed-in user with an SDK instance that records every callback. */
class User {
  constructor(server, account, tokens) {
    this.server = server;
    this.account = account;
    this.id = tokens.userId;
    this.tokens = tokens;
    this.events = [];
    this.waiters = [];
  }

  async connect() {
    this.sdk = new OpenIMSDK();
    for (const ev of Object.values(CbEvents)) {
      this.sdk.on(ev, (res) => this.record(ev, res));
    }
    const r = await within(
      this.sdk.login({
        userID: this.id,
        token: this.tokens.chatToken,
        wsAddr: this.server.ws,
        apiAddr: this.server.base,
        platformID: 5,
      }),
      10000,
      `${this.account} login`,
    );
    assert.equal(r.errCode, 0);
    await this.waitEvent(CbEvents.OnConnectSuccess);
  }

  record(event, res) {
    const w = this.waiters.find((x) => (x.events ? x.events.includes(event) : x.event === event) && x.match(res.data));
    if (w) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(res.data);
      return;
    }
    this.events.push({ event, data: res.data });
  }

  /** Waits for (and consumes) a callback whose data matches. */
  waitEvent(event, match = () => true, ms = 10000) {
    const i = this.events.findIndex((e) => e.event === event && match(e.data));
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0].data);
    return within(
      new Promise((resolve) => this.waiters.push({ event, match, resolve })),
      ms,
      `${this.account}: ${event}`,
    );
  }

  /** waitEvent for the first of several callbacks (a conversation may come new or changed). */
  waitAnyEvent(events, match = () => true, ms = 10000) {
    const i = this.events.findIndex((e) => events.includes(e.event) && match(e.data));
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0].data);
    return within(
      new Promise((resolve) => this.waiters.push({ events, match, resolve })),
      ms,
      `${this.account}: ${events.join(' or ')}`,
    );
  }

  /** Calls an SDK method and returns the reply's data. */
  async call(method, ...args) {
    const r = await within(this.sdk[method](...args), 10000, `${this.account}.${method}`);
    assert.equal(r.errCode, 0, `${method}: ${r.errMsg}`);
    return r.data;
  }

  async text(text, recvID, groupID = '') {
    const message = await this.call('createTextMessage', text);
    return this.call('sendMessage', { recvID, groupID, message });
  }
}

let server;
let dataDir;
const users = {};

async function signUp(name) {
  const account = `${name}${suffix}`;
  const reg = await server.api('/register', { account, password });
  assert.equal(reg.code, 0, `register ${account}: ${reg.message}`);
  return signIn(account);
}

async function signIn(account) {
  const r = await server.api('/accountLogin', { account, password, platform: 5, operationID: `op-${account}` });
  assert.equal(r.code, 0, `accountLogin ${account}: ${r.message}`);
  assert.ok(r.data.token && r.data.jwt && r.data.chatToken && r.data.userId);
  return new User(server, account, r.data);
}

function single(a, b) {
  return a < b ? `si_${a}_${b}` : `si_${b}_${a}`;
}

before(async () => {
  let bin = process.env.KJ_BIN;
  dataDir = mkdtempSync(join(tmpdir(), 'kj-sdk-'));
  if (!bin) {
    bin = join(dataDir, 'kj');
    execFileSync('go', ['build', '-o', bin, '.'], { cwd: repo, stdio: 'inherit' });
  }
  server = new Server(bin, join(dataDir, 'data'), await freePort());
  await server.start();
  for (const name of ['alice', 'bob', 'carol']) {
    users[name] = await signUp(name);
    await users[name].connect();
  }
});

after(async () => {
  for (const u of Object.values(users)) {
    try {
      await within(u.sdk.logout(), 2000, 'logout');
    } catch {
      // already closed
    }
  }
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('two users: friend request, accept, chat, unread, mark read, dedupe, typing, revoke', { timeout: 60000 }, async () => {
  const { alice, bob } = users;
  const self = await alice.call('getSelfUserInfo');
  assert.equal(self.userID, alice.id);
  assert.equal(self.nickname, alice.account);

  const noVerify = await rejection(alice.sdk.addFriend({ toUserID: bob.id, reqMsg: '' }));
  assert.equal(noVerify.errCode, 1312);
  assert.equal(noVerify.event, 'AddFriend');
  assert.ok(noVerify.errMsg);

  await alice.call('addFriend', { toUserID: bob.id, reqMsg: 'Hi, I am Alice' });
  const app = await bob.waitEvent(CbEvents.OnFriendApplicationAdded);
  assert.equal(app.fromUserID, alice.id);
  assert.equal(app.reqMsg, 'Hi, I am Alice');
  const pending = await bob.call('getFriendApplicationListAsRecipient');
  assert.equal(pending.length, 1);
  assert.equal(pending[0].handleResult, 0);

  await bob.call('acceptFriendApplication', { toUserID: alice.id, handleMsg: 'welcome' });
  const added = await alice.waitEvent(CbEvents.OnFriendAdded);
  assert.equal(added.userID, bob.id);
  const friends = await alice.call('getFriendList');
  assert.deepEqual(friends.map((f) => f.friendInfo.userID), [bob.id]);
  const accepted = await alice.call('getFriendApplicationListAsApplicant');
  assert.equal(accepted[0].handleResult, 1);

  const conv = single(alice.id, bob.id);
  const message = await alice.call('createTextMessage', 'hello bob');
  assert.equal(message.contentType, 101);
  assert.equal(message.status, 1);
  assert.equal(message.textElem.content, 'hello bob');
  const sent = await alice.call('sendMessage', { recvID: bob.id, groupID: '', message });
  assert.equal(sent.status, 2);
  assert.ok(sent.serverMsgID);
  assert.ok(sent.seq > 0);
  assert.equal(sent.clientMsgID, message.clientMsgID);

  const got = await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === message.clientMsgID);
  assert.equal(got.textElem.content, 'hello bob');
  assert.equal(got.sendID, alice.id);
  assert.equal(got.seq, sent.seq);
  await bob.waitEvent(CbEvents.OnTotalUnreadMessageCountChanged, (n) => n === 1);
  assert.equal(await bob.call('getTotalUnreadMsgCount'), 1);
  const list = await bob.call('getAllConversationList');
  const item = list.find((c) => c.conversationID === conv);
  assert.equal(item.unreadCount, 1);
  assert.equal(item.userID, alice.id);
  assert.equal(JSON.parse(item.latestMsg).clientMsgID, message.clientMsgID);

  // A resend with the same clientMsgID returns the stored message.
  const again = await alice.call('sendMessage', { recvID: bob.id, groupID: '', message });
  assert.equal(again.seq, sent.seq);
  assert.equal(again.serverMsgID, sent.serverMsgID);

  await bob.call('markConversationMessageAsRead', conv);
  await bob.waitEvent(CbEvents.OnTotalUnreadMessageCountChanged, (n) => n === 0);
  assert.equal(await bob.call('getTotalUnreadMsgCount'), 0);
  const [one] = await bob.call('getMultipleConversation', [conv]);
  assert.equal(one.unreadCount, 0);

  await bob.call('typingStatusUpdate', { recvID: alice.id, msgTip: 'typing' });
  const typing = await alice.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.contentType === 113);
  assert.equal(typing.typingElem.msgTips, 'typing');

  const oops = await alice.text('oops', bob.id);
  await alice.call('revokeMessage', { conversationID: conv, clientMsgID: oops.clientMsgID });
  const revoked = await bob.waitEvent(CbEvents.OnNewRecvMessageRevoked, (r) => r.clientMsgID === oops.clientMsgID);
  assert.equal(revoked.revokerID, alice.id);

  await bob.call('setConversationDraft', { conversationID: conv, draftText: 'unsent' });
  await bob.call('pinConversation', { conversationID: conv, isPinned: true });
  const [pinned] = await bob.call('getAllConversationList');
  assert.equal(pinned.conversationID, conv);
  assert.equal(pinned.isPinned, true);
  assert.equal(pinned.draftText, 'unsent');

  const history = await bob.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 20, startClientMsgID: '', lastMinSeq: 0 });
  assert.deepEqual(history.messageList.map((m) => m.seq), history.messageList.map((_, i) => i + 1));
  assert.equal(history.isEnd, true);

  const foreign = await rejection(bob.sdk.markConversationMessageAsRead(single(alice.id, users.carol.id)));
  assert.equal(foreign.errCode, 1308);
});

test('three users: a group with roles and mute', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const group = await alice.call('createGroup', {
    memberUserIDs: [bob.id, carol.id],
    groupInfo: { groupName: 'Team', needVerification: 2 },
  });
  assert.equal(group.memberCount, 3);
  assert.equal(group.ownerUserID, alice.id);
  await carol.waitEvent(CbEvents.OnJoinedGroupAdded, (g) => g.groupID === group.groupID);
  const nameless = await rejection(alice.sdk.createGroup({ memberUserIDs: [], groupInfo: { groupName: '' } }));
  assert.equal(nameless.errCode, 1317);

  await alice.call('setGroupMemberInfo', { groupID: group.groupID, userID: bob.id, roleLevel: 60 });
  await carol.waitEvent(CbEvents.OnGroupMemberInfoChanged, (m) => m.userID === bob.id && m.roleLevel === 60);
  const members = await carol.call('getGroupMemberList', { groupID: group.groupID, filter: 0, offset: 0, count: 2000 });
  const roles = Object.fromEntries(members.map((m) => [m.userID, m.roleLevel]));
  assert.deepEqual(roles, { [alice.id]: 100, [bob.id]: 60, [carol.id]: 20 });
  const admins = await carol.call('getGroupMemberOwnerAndAdmin', group.groupID);
  assert.equal(admins.length, 2);

  // A member cannot kick; an admin cannot act on the owner.
  const memberKicks = await rejection(carol.sdk.kickGroupMember({ groupID: group.groupID, reason: '', userIDList: [bob.id] }));
  assert.equal(memberKicks.errCode, 1321);
  const adminMutesOwner = await rejection(bob.sdk.changeGroupMemberMute({ groupID: group.groupID, userID: alice.id, mutedSeconds: 60 }));
  assert.equal(adminMutesOwner.errCode, 1321);
  const adminDismisses = await rejection(bob.sdk.dismissGroup(group.groupID));
  assert.equal(adminDismisses.errCode, 1321);

  // The admin mutes the member: her sends fail until unmuted.
  await bob.call('changeGroupMemberMute', { groupID: group.groupID, userID: carol.id, mutedSeconds: 60 });
  const muteInfo = await carol.waitEvent(CbEvents.OnGroupMemberInfoChanged, (m) => m.userID === carol.id && m.muteEndTime > 0);
  assert.ok(muteInfo.muteEndTime > Date.now() - 5000);
  const muted = await rejection(carol.text('may I speak?', '', group.groupID));
  assert.equal(muted.errCode, 1322);
  await bob.call('changeGroupMemberMute', { groupID: group.groupID, userID: carol.id, mutedSeconds: 0 });
  await carol.waitEvent(CbEvents.OnGroupMemberInfoChanged, (m) => m.userID === carol.id && m.muteEndTime === 0);
  const spoken = await carol.text('thanks', '', group.groupID);
  const heard = await alice.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === spoken.clientMsgID);
  assert.equal(heard.groupID, group.groupID);
  assert.equal(heard.sessionType, 3);

  // The whole group muted: members silent, admins speak.
  await bob.call('changeGroupMute', { groupID: group.groupID, isMute: true });
  const quiet = await rejection(carol.text('hello?', '', group.groupID));
  assert.equal(quiet.errCode, 1323);
  await bob.text('admins may', '', group.groupID);
  await alice.call('changeGroupMute', { groupID: group.groupID, isMute: false });

  // Kick, then dismiss: the group refuses everything after.
  await bob.call('kickGroupMember', { groupID: group.groupID, reason: 'bye', userIDList: [carol.id] });
  await carol.waitEvent(CbEvents.OnJoinedGroupDeleted, (g) => g.groupID === group.groupID);
  const kicked = await rejection(carol.text('still here?', '', group.groupID));
  assert.equal(kicked.errCode, 1320);
  await alice.call('dismissGroup', group.groupID);
  await bob.waitEvent(CbEvents.OnGroupDismissed, (g) => g.groupID === group.groupID);
  const dismissed = await rejection(bob.text('anyone?', '', group.groupID));
  assert.equal(dismissed.errCode, 1319);
});

test('reconnect after a node restart, and catch-up by seq after being offline', { timeout: 90000 }, async () => {
  const { alice, bob } = users;
  const conv = single(alice.id, bob.id);
  const [before] = await bob.call('getMultipleConversation', [conv]);
  let last = before.maxSeq;

  // The node restarts: the SDKs reconnect on their own and log in again.
  await server.stop();
  await server.start();
  await Promise.all([alice, bob].map((u) => u.waitEvent(CbEvents.OnConnectSuccess, () => true, 30000)));
  const live = await alice.text('after the restart', bob.id);
  assert.equal(live.seq, last + 1);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === live.clientMsgID);
  last = live.seq;

  // Bob reads, goes offline; Alice writes; Bob comes back and asks for
  // what follows his last seq: everything, in order, once.
  await bob.call('markConversationMessageAsRead', conv);
  await bob.call('logout');
  const sent = [];
  for (const t of ['one', 'two', 'three']) sent.push(await alice.text(t, bob.id));
  await bob.connect();
  const page = await bob.call('getAdvancedHistoryMessageListReverse', {
    conversationID: conv,
    startClientMsgID: '',
    lastMinSeq: last,
    count: 20,
  });
  assert.deepEqual(page.messageList.map((m) => m.textElem?.content), ['one', 'two', 'three']);
  assert.deepEqual(page.messageList.map((m) => m.seq), [last + 1, last + 2, last + 3]);
  assert.equal(page.isEnd, true);
  const [after] = await bob.call('getMultipleConversation', [conv]);
  assert.equal(after.unreadCount, 3);
  assert.equal(after.maxSeq, last + 3);
});

test('signing in again elsewhere kicks the old socket offline', { timeout: 30000 }, async () => {
  const old = users.carol;
  const fresh = await signIn(old.account);
  const kicked = old.waitEvent(CbEvents.OnKickedOffline);
  await fresh.connect();
  await kicked;
  users.carol = fresh;
  assert.equal(await fresh.call('getLoginStatus'), 3);
});

test('read receipts: the peer reads a 1:1 chat, members read a small group', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const conv = single(alice.id, bob.id);
  const sent = await alice.text('did you read this?', bob.id);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === sent.clientMsgID);
  await bob.call('markConversationMessageAsRead', conv);
  const [receipt] = await alice.waitEvent(CbEvents.OnRecvC2CReadReceipt, (list) => list[0]?.msgIDList.includes(sent.clientMsgID));
  assert.equal(receipt.userID, bob.id);
  assert.equal(receipt.sessionType, 1);
  assert.ok(receipt.readTime > 0);
  const mine = await alice.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 5, startClientMsgID: '', lastMinSeq: 0 });
  assert.equal(mine.messageList.at(-1).clientMsgID, sent.clientMsgID);
  assert.equal(mine.messageList.at(-1).isRead, true);

  const group = await alice.call('createGroup', {
    memberUserIDs: [bob.id, carol.id],
    groupInfo: { groupName: 'Readers', needVerification: 2 },
  });
  const gconv = `sg_${group.groupID}`;
  const hello = await alice.text('read by whom?', '', group.groupID);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === hello.clientMsgID);
  await bob.call('markConversationMessageAsRead', gconv);
  const state = await alice.waitEvent(CbEvents.OnRecvGroupReadReceipt, (r) => r.conversationID === gconv);
  const [info] = state.groupMessageReadInfo;
  assert.equal(info.clientMsgID, hello.clientMsgID);
  assert.equal(info.hasReadCount, 1);
  assert.equal(info.unreadCount, 1);
  assert.deepEqual(info.readMembers.map((m) => m.userID), [bob.id]);
  const page = await alice.call('getAdvancedHistoryMessageList', { conversationID: gconv, count: 20, startClientMsgID: '', lastMinSeq: 0 });
  const read = page.messageList.find((m) => m.clientMsgID === hello.clientMsgID).attachedInfoElem.groupHasReadInfo;
  assert.equal(read.hasReadCount, 1);
  assert.equal(read.groupMemberCount, 2);
  assert.deepEqual(read.hasReadUserIDList, [bob.id]);
});

test('presence: subscribe to a friend, offline with last seen, hidden, a group member sees, strangers see nothing', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const [online] = await alice.call('subscribeUsersStatus', [bob.id]);
  assert.deepEqual([online.userID, online.status], [bob.id, 1]);

  const before = Date.now();
  await bob.call('logout');
  const offline = await alice.waitEvent(CbEvents.OnUserStatusChanged, (s) => s.userID === bob.id && s.status === 0);
  assert.ok(offline.lastSeen >= before - 1000, `last seen ${offline.lastSeen}`);
  const watched = await alice.call('getSubscribeUsersStatus');
  assert.deepEqual(watched.map((s) => [s.userID, s.status, s.lastSeen]), [[bob.id, 0, offline.lastSeen]]);

  await bob.connect();
  await alice.waitEvent(CbEvents.OnUserStatusChanged, (s) => s.userID === bob.id && s.status === 1);

  // Carol shares a group with Bob (the read-receipts test's): a relation, so she sees him.
  const [member] = await carol.call('subscribeUsersStatus', [bob.id]);
  assert.deepEqual([member.userID, member.status], [bob.id, 1]);
  await carol.call('unsubscribeUsersStatus', [bob.id]);

  // Erin shares nothing with Bob: she reads offline with no last seen and watches nothing.
  const erin = await signUp('erin');
  await erin.connect();
  try {
    const [stranger] = await erin.call('subscribeUsersStatus', [bob.id]);
    assert.deepEqual([stranger.status, stranger.lastSeen], [0, 0]);
    assert.deepEqual(await erin.call('getSubscribeUsersStatus'), []);
  } finally {
    await within(erin.sdk.logout(), 2000, 'logout').catch(() => undefined);
  }

  // kj's own call, made through the SDK's request plumbing.
  const setHidden = bob.sdk.createRequestFunction('SetPresenceHidden');
  assert.equal((await setHidden(true)).errCode, 0);
  const hidden = await alice.waitEvent(CbEvents.OnUserStatusChanged, (s) => s.userID === bob.id && s.status === 0);
  assert.equal(hidden.lastSeen, 0);
  assert.equal((await setHidden(false)).errCode, 0);
  await alice.waitEvent(CbEvents.OnUserStatusChanged, (s) => s.userID === bob.id && s.status === 1);

  await alice.call('unsubscribeUsersStatus', [bob.id]);
  assert.deepEqual(await alice.call('getSubscribeUsersStatus'), []);
});

test('@mentions: AtText to a member, groupAtType AtMe until read, strangers and @all from members refused', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const group = await alice.call('createGroup', {
    memberUserIDs: [bob.id, carol.id],
    groupInfo: { groupName: 'Mentions', needVerification: 2 },
  });
  const gconv = `sg_${group.groupID}`;
  // Carol (a member) names bob.
  const message = await carol.call('createTextAtMessage', {
    text: '@bob lunch?',
    atUserIDList: [bob.id],
    atUsersInfo: [{ atUserID: bob.id, groupNickname: 'bob' }],
  });
  assert.equal(message.contentType, 106);
  const sent = await carol.call('sendMessage', { recvID: '', groupID: group.groupID, message });
  const got = await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === sent.clientMsgID);
  assert.deepEqual(got.atTextElem.atUserList, [bob.id]);
  assert.equal(got.atTextElem.text, '@bob lunch?');
  const pushed = [CbEvents.OnNewConversation, CbEvents.OnConversationChanged];
  await bob.waitAnyEvent(pushed, (list) => list.some((c) => c.conversationID === gconv && c.groupAtType === 1));
  const mine = await bob.call('getOneConversation', { sourceID: group.groupID, sessionType: 3 });
  assert.equal(mine.groupAtType, 1); // AtMe
  const hers = await alice.call('getOneConversation', { sourceID: group.groupID, sessionType: 3 });
  assert.equal(hers.groupAtType, 0);
  // Reading clears it.
  await bob.call('markConversationMessageAsRead', gconv);
  const read = await bob.call('getOneConversation', { sourceID: group.groupID, sessionType: 3 });
  assert.equal(read.groupAtType, 0);
  assert.equal(read.unreadCount, 0);

  // Refused: naming someone outside the group; @all from an ordinary member.
  const outsider = await signUp('dave');
  const stranger = await carol.call('createTextAtMessage', { text: '@dave hi', atUserIDList: [outsider.id] });
  const e1 = await rejection(carol.sdk.sendMessage({ recvID: '', groupID: group.groupID, message: stranger }));
  assert.equal(e1.errCode, 1345);
  assert.ok(e1.errMsg);
  const all = await carol.call('createTextAtMessage', { text: '@all hi', atUserIDList: ['AtAllTag'] });
  const e2 = await rejection(carol.sdk.sendMessage({ recvID: '', groupID: group.groupID, message: all }));
  assert.equal(e2.errCode, 1346);
  // The owner may: everyone else sees AtAll.
  const fromOwner = await alice.call('createTextAtMessage', { text: '@all meeting', atUserIDList: ['AtAllTag'] });
  await alice.call('sendMessage', { recvID: '', groupID: group.groupID, message: fromOwner });
  await carol.waitAnyEvent(pushed, (list) => list.some((c) => c.conversationID === gconv && c.groupAtType === 2));

  // The search across conversations finds the message for bob, not for a stranger.
  const found = await bob.call('searchLocalMessages', { conversationID: '', keywordList: ['LUNCH'], keywordListMatchType: 0, senderUserIDList: [], messageTypeList: [], searchTimePosition: 0, searchTimePeriod: 0, pageIndex: 1, count: 10 });
  const hit = found.searchResultItems.find((i) => i.conversationID === gconv);
  assert.ok(hit, 'bob finds the message');
  assert.equal(hit.messageList[0].clientMsgID, sent.clientMsgID);
});

test('pin and do not disturb: the other device sees them; a muted chat keeps its unread but not in the total', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const conv = single(alice.id, bob.id);
  // A second device of Bob's: the same sign-in on its own socket.
  const other = new User(server, bob.account, bob.tokens);
  await other.connect();
  try {
    await bob.call('markConversationMessageAsRead', conv);
    await bob.call('pinConversation', { conversationID: conv, isPinned: false });
    await other.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && !c.isPinned));

    await bob.call('setConversationRecvMessageOpt', { conversationID: conv, opt: 2 });
    await other.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.recvMsgOpt === 2));
    const base = await other.call('getTotalUnreadMsgCount');

    const quiet = await alice.text('while you are on do not disturb', bob.id);
    await other.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === quiet.clientMsgID);
    await other.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.unreadCount === 1));
    const [muted] = await other.call('getMultipleConversation', [conv]);
    assert.equal(muted.recvMsgOpt, 2);
    assert.equal(muted.unreadCount, 1);
    assert.equal(await other.call('getTotalUnreadMsgCount'), base);

    await bob.call('pinConversation', { conversationID: conv, isPinned: true });
    await other.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.isPinned));
    const [first] = await other.call('getAllConversationList');
    assert.equal(first.conversationID, conv);
    assert.equal(first.isPinned, true);
    const [alicesView] = await alice.call('getMultipleConversation', [conv]);
    assert.equal(alicesView.isPinned, false);
    assert.equal(alicesView.recvMsgOpt, 0);

    await other.call('setConversationRecvMessageOpt', { conversationID: conv, opt: 0 });
    await bob.waitEvent(CbEvents.OnTotalUnreadMessageCountChanged, (n) => n === base + 1);
    assert.equal(await bob.call('getTotalUnreadMsgCount'), base + 1);

    const bad = await rejection(bob.sdk.setConversationRecvMessageOpt({ conversationID: conv, opt: 7 }));
    assert.equal(bad.errCode, 1302);
    const foreign = await rejection(carol.sdk.pinConversation({ conversationID: conv, isPinned: true }));
    assert.equal(foreign.errCode, 1308);

    await bob.call('clearConversationAndDeleteAllMsg', conv);
    const [cleared] = await other.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.unreadCount === 0));
    assert.equal(cleared.conversationID, conv);
    const history = await other.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 20, startClientMsgID: '', lastMinSeq: 0 });
    assert.deepEqual(history.messageList, []);
    const [kept] = await alice.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 1, startClientMsgID: '', lastMinSeq: 0 }).then((h) => h.messageList);
    assert.equal(kept.clientMsgID, quiet.clientMsgID);
  } finally {
    await within(other.sdk.logout(), 2000, 'second device logout').catch(() => undefined);
  }
});

test('attachments: an SDK picture message is shown to the peer, by token or signed link, and to nobody else', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', 'latin1'), Buffer.alloc(64, 7)]);
  const form = new FormData();
  form.append('kind', 'image');
  form.append('file', new Blob([png], { type: 'image/png' }), 'red.png');
  const up = await (await fetch(`${server.base}/api/chat/upload`, { method: 'POST', headers: { token: alice.tokens.token }, body: form })).json();
  assert.equal(up.code, 0, up.message);
  const pic = { uuid: up.data.url, type: 'image/png', size: png.length, width: 4, height: 4, url: up.data.url };
  const message = await alice.call('createImageMessageByURL', { sourcePath: '', sourcePicture: pic, bigPicture: pic, snapshotPicture: pic });
  await alice.call('sendMessage', { recvID: bob.id, groupID: '', message });
  const got = await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === message.clientMsgID);
  // The message carries the bare path, no credential.
  const url = got.pictureElem.sourcePicture.url;
  assert.equal(url, up.data.url);
  const get = (path, headers = {}) => fetch(`${server.base}${path}`, { headers });
  const byToken = await get(url, { token: bob.tokens.token });
  assert.equal(byToken.status, 200);
  assert.deepEqual(Buffer.from(await byToken.arrayBuffer()), png);
  const links = await (await fetch(`${server.base}/api/chat/fileURLs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: bob.tokens.token },
    body: JSON.stringify({ urls: [url] }),
  })).json();
  assert.equal(links.code, 0, links.message);
  assert.equal((await get(links.data.urls[url])).status, 200);
  // Not a member of the chat, or signed out: refused.
  assert.equal((await get(url, { token: carol.tokens.token })).status, 404);
  assert.equal((await get(url)).status, 403);
});

test('reactions and edits: kj notices 2901/2902 with seqs, live and after reconnect; rules refused with codes; the SDK keeps working', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const conv = single(alice.id, bob.id);
  // kj's own calls, through the SDK's request plumbing.
  const call = (u, name, ...args) =>
    within(u.sdk.createRequestFunction(name, () => JSON.stringify(args))(), 10000, `${u.account}.${name}`);
  const detail = (m) => JSON.parse(m.notificationElem.detail);

  const msg = await alice.text('react to me', bob.id);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === msg.clientMsgID);
  await bob.call('markConversationMessageAsRead', conv);
  const unreadBefore = await bob.call('getTotalUnreadMsgCount');

  // Live: a reaction and an edit reach the other side as notices with the next seqs.
  const reacted = await call(bob, 'AddMessageReaction', conv, msg.clientMsgID, '👍');
  assert.equal(reacted.errCode, 0, reacted.errMsg);
  assert.deepEqual(reacted.data.map((r) => [r.emoji, r.count]), [['👍', 1]]);
  const r = await alice.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.contentType === 2901);
  assert.equal(r.seq, msg.seq + 1);
  assert.deepEqual([detail(r).clientMsgID, detail(r).emoji, detail(r).add, detail(r).userID], [msg.clientMsgID, '👍', true, bob.id]);
  const edited = await call(alice, 'EditMessage', conv, msg.clientMsgID, 'react to me, please');
  assert.equal(edited.errCode, 0, edited.errMsg);
  const e = await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.contentType === 2902);
  assert.equal(e.seq, msg.seq + 2);
  assert.equal(detail(e).textElem.content, 'react to me, please');
  assert.ok(detail(e).editTime > 0);

  // The SDK's own calls are unaffected: the list keeps the message (edited) as the latest, no unread.
  assert.equal(await bob.call('getTotalUnreadMsgCount'), unreadBefore);
  const [item] = await bob.call('getMultipleConversation', [conv]);
  assert.equal(JSON.parse(item.latestMsg).clientMsgID, msg.clientMsgID);
  assert.equal(JSON.parse(item.latestMsg).textElem.content, 'react to me, please');
  assert.equal(item.unreadCount, 0);
  const page = await bob.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 3, startClientMsgID: '', lastMinSeq: 0 });
  assert.deepEqual(page.messageList.map((m) => [m.seq, m.contentType]), [[msg.seq, 101], [msg.seq + 1, 2901], [msg.seq + 2, 2902]]);
  const folded = page.messageList[0];
  assert.equal(folded.textElem.content, 'react to me, please');
  assert.ok(folded.editTime > 0);
  assert.deepEqual(folded.reactions, [{ emoji: '👍', count: 1, userIDList: [bob.id] }]);
  const later = await alice.text('and it still works', bob.id);
  assert.equal(later.seq, msg.seq + 3);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === later.clientMsgID);

  // Offline: what happened meanwhile comes on the catch-up by seq.
  await bob.call('logout');
  assert.equal((await call(alice, 'AddMessageReaction', conv, later.clientMsgID, '❤️')).errCode, 0);
  assert.equal((await call(alice, 'EditMessage', conv, later.clientMsgID, 'and it still works!')).errCode, 0);
  await bob.connect();
  const caught = await bob.call('getAdvancedHistoryMessageListReverse', { conversationID: conv, startClientMsgID: '', lastMinSeq: later.seq, count: 20 });
  assert.deepEqual(caught.messageList.map((m) => [m.seq, m.contentType]), [[later.seq + 1, 2901], [later.seq + 2, 2902]]);
  assert.equal(detail(caught.messageList[0]).emoji, '❤️');
  assert.equal(detail(caught.messageList[1]).textElem.content, 'and it still works!');

  // Refused with codes, and nothing written.
  const code = async (u, name, ...args) => (await call(u, name, ...args).then(() => ({ errCode: 0 }), (x) => x)).errCode;
  assert.equal(await code(carol, 'AddMessageReaction', conv, msg.clientMsgID, '👍'), 1308); // not in the chat
  assert.equal(await code(bob, 'EditMessage', conv, msg.clientMsgID, 'mine now'), 1351); // someone else's
  await bob.call('addBlack', { toUserID: alice.id, ex: '' });
  assert.equal(await code(alice, 'AddMessageReaction', conv, msg.clientMsgID, '😀'), 1311); // blocked
  await bob.call('removeBlack', alice.id);
  const group = await alice.call('createGroup', { memberUserIDs: [bob.id, carol.id], groupInfo: { groupName: 'Reactions', needVerification: 2 } });
  const gconv = `sg_${group.groupID}`;
  const said = await carol.text('carol here', '', group.groupID);
  await alice.call('changeGroupMemberMute', { groupID: group.groupID, userID: carol.id, mutedSeconds: 60 });
  assert.equal(await code(carol, 'AddMessageReaction', gconv, said.clientMsgID, '👍'), 1322); // muted
  assert.equal(await code(carol, 'EditMessage', gconv, said.clientMsgID, 'carol'), 1322);
  await alice.call('kickGroupMember', { groupID: group.groupID, reason: '', userIDList: [carol.id] });
  assert.equal(await code(carol, 'AddMessageReaction', gconv, said.clientMsgID, '👍'), 1320); // not a member
  await sleep(Math.max(0, msg.sendTime + 4100 - Date.now())); // until KJ_CHAT_EDIT_WINDOW has passed
  assert.equal(await code(alice, 'EditMessage', conv, msg.clientMsgID, 'too late'), 1350);
  const [after] = await bob.call('getMultipleConversation', [conv]);
  assert.equal(after.maxSeq, later.seq + 2);
});

test('SDK last calls: every name of the SDK\'s RequestApi is answered, none as an unknown call', { timeout: 60000 }, async () => {
  const { RequestApi } = await import('open-im-sdk');
  // Every name, straight over the protocol: the SDK's promise for InitSDK
  // never settles (it drops that event) and Logout closes the socket, so a
  // raw socket of a user of its own sends them all, Logout last.
  const names = Object.values(RequestApi).filter((n) => n !== 'Login' && n !== 'Logout');
  assert.ok(names.length >= 95, `the SDK names ${names.length} calls`);
  const who = await signUp('every');
  const ws = new WebSocket(`${server.ws}?sendID=${who.id}&token=${who.tokens.chatToken}&platformID=5&operationID=op-every`);
  const replies = new Map();
  const waiting = new Map();
  ws.onmessage = (ev) => {
    const r = JSON.parse(ev.data);
    if (!r.operationID) return;
    const w = waiting.get(r.operationID);
    if (w) {
      waiting.delete(r.operationID);
      w(r);
    } else replies.set(r.operationID, r);
  };
  await within(new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; }), 10000, 'socket open');
  let n = 0;
  const send = (reqFuncName, data = '[]') => {
    const operationID = `every-${++n}`;
    const got = replies.has(operationID)
      ? Promise.resolve(replies.get(operationID))
      : new Promise((resolve) => waiting.set(operationID, resolve));
    ws.send(JSON.stringify({ reqFuncName, operationID, userID: who.id, data }));
    return within(got, 10000, reqFuncName);
  };
  // Over the request rate (30 a second) a call is refused with 1306: wait
  // and ask again, Logout included.
  const answer = async (reqFuncName, data) => {
    let r = await send(reqFuncName, data);
    while (r.errCode === 1306) {
      await sleep(250);
      r = await send(reqFuncName, data);
    }
    return r;
  };
  try {
    assert.equal((await send('Login', JSON.stringify([who.id, who.tokens.chatToken]))).errCode, 0);
    const answers = {};
    for (const name of names) answers[name] = await answer(name);
    const unknown = names.filter((k) => answers[k].errCode === 1301);
    assert.deepEqual(unknown, [], `answered "unknown call": ${unknown.join(', ')}`);
    for (const [name, r] of Object.entries(answers)) {
      assert.equal(r.event, name);
      if (r.errCode !== 0) assert.ok(r.errMsg, `${name}: an error without a message`);
    }
    // The calls the app does on its own say so, naming the call.
    for (const name of ['InsertSingleMessageToLocalStorage', 'InsertGroupMessageToLocalStorage', 'SetMessageLocalEx', 'UploadFile', 'InitSDK']) {
      assert.equal(answers[name].errCode, 1370, name);
      assert.match(answers[name].errMsg, new RegExp(name));
    }
    const bye = await answer('Logout');
    assert.equal(bye.errCode, 0);
    assert.ok(names.length + 2 === Object.values(RequestApi).length);
  } finally {
    ws.close();
  }
});

test('SDK last calls: do not disturb for everything, @mark reset, local-only calls refused clearly', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  // A second device of Alice's hears her do not disturb.
  const other = new User(server, alice.account, alice.tokens);
  await other.connect();
  try {
    await alice.call('setGlobalRecvMessageOpt', 2);
    const info = await other.waitEvent(CbEvents.OnSelfInfoUpdated, (u) => u.globalRecvMsgOpt === 2);
    assert.equal(info.userID, alice.id);
    assert.equal((await other.call('getSelfUserInfo')).globalRecvMsgOpt, 2);
    const bad = await rejection(alice.sdk.setGlobalRecvMessageOpt(9));
    assert.equal(bad.errCode, 1302);
    await other.call('setGlobalRecvMessageOpt', 0);
    await alice.waitEvent(CbEvents.OnSelfInfoUpdated, (u) => u.globalRecvMsgOpt === 0);
  } finally {
    await within(other.sdk.logout(), 2000, 'second device logout').catch(() => undefined);
  }

  const group = await alice.call('createGroup', { memberUserIDs: [bob.id, carol.id], groupInfo: { groupName: 'Reset', needVerification: 2 } });
  const gconv = `sg_${group.groupID}`;
  const at = await alice.call('createTextAtMessage', { text: '@bob look', atUserIDList: [bob.id], atUsersInfo: [{ atUserID: bob.id, groupNickname: 'bob' }] });
  await alice.call('sendMessage', { recvID: '', groupID: group.groupID, message: at });
  const pushed = [CbEvents.OnNewConversation, CbEvents.OnConversationChanged];
  await bob.waitAnyEvent(pushed, (l) => l.some((c) => c.conversationID === gconv && c.groupAtType === 1));
  await bob.call('resetConversationGroupAtType', gconv);
  await bob.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === gconv && c.groupAtType === 0));
  const [reset] = await bob.call('getMultipleConversation', [gconv]);
  assert.equal(reset.groupAtType, 0);
  assert.ok(reset.unreadCount >= 1, 'the reset reads nothing');

  const message = await alice.call('createTextMessage', 'local only');
  const local = await rejection(alice.sdk.insertSingleMessageToLocalStorage({ message, recvID: bob.id, sendID: alice.id }));
  assert.equal(local.errCode, 1370);
  assert.match(local.errMsg, /InsertSingleMessageToLocalStorage/);
  const ex = await rejection(alice.sdk.setMessageLocalEx({ conversationID: single(alice.id, bob.id), clientMsgID: message.clientMsgID, localEx: 'x' }));
  assert.equal(ex.errCode, 1370);
});

test('SDK last calls: private chat burns a read message on both sides, and the setting reaches both users', { timeout: 60000 }, async () => {
  const { alice, bob, carol } = users;
  const conv = single(alice.id, bob.id);
  const page = async (u) => (await u.call('getAdvancedHistoryMessageList', { conversationID: conv, count: 50, startClientMsgID: '', lastMinSeq: 0 })).messageList;
  const kept = await alice.text('said before private chat', bob.id);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === kept.clientMsgID);

  await alice.call('setConversationPrivateChat', { conversationID: conv, isPrivate: true });
  await bob.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.isPrivateChat));
  await bob.call('setConversationBurnDuration', { conversationID: conv, burnDuration: 2 });
  await alice.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.isPrivateChat && c.burnDuration === 2));

  const secret = await alice.text('this message will self-destruct', bob.id);
  await bob.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === secret.clientMsgID);
  // Unread, it stays; read, it goes burnDuration later from both sides.
  await bob.call('markConversationMessageAsRead', conv);
  const readAt = Date.now();
  assert.ok((await page(bob)).some((m) => m.clientMsgID === secret.clientMsgID), 'gone before its time');
  const gone = async (u) => {
    for (const deadline = Date.now() + 10000; Date.now() < deadline; await sleep(200)) {
      if (!(await page(u)).some((m) => m.clientMsgID === secret.clientMsgID)) return Date.now();
    }
    throw new Error(`${u.account} still has the private message`);
  };
  const [ta, tb] = await Promise.all([gone(alice), gone(bob)]);
  assert.ok(Math.min(ta, tb) - readAt >= 1500, `burned ${Math.min(ta, tb) - readAt} ms after reading`);
  for (const u of [alice, bob]) {
    assert.ok((await page(u)).some((m) => m.clientMsgID === kept.clientMsgID), 'a message from before private chat burned');
  }

  const refused = await rejection(carol.sdk.setConversationPrivateChat({ conversationID: conv, isPrivate: false }));
  assert.equal(refused.errCode, 1308);
  const tooLong = await rejection(alice.sdk.setConversationBurnDuration({ conversationID: conv, burnDuration: 0 }));
  assert.equal(tooLong.errCode, 1302);
  await alice.call('setConversationPrivateChat', { conversationID: conv, isPrivate: false });
  await bob.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && !c.isPrivateChat));
});

/** A message of the server's table (internal/apierr/locales), to compare words exactly. */
function serverText(lang, key) {
  return JSON.parse(readFileSync(join(repo, 'internal', 'apierr', 'locales', `${lang}.json`), 'utf8'))[key];
}

// Several devices of one user (KJ_LOGIN_POLICY=devices): a server of its own, two SDK
// clients of one user on the same platform, each its own sign-in.
describe('several devices of one user (KJ_LOGIN_POLICY=devices)', () => {
  let devServer;
  let devDir;
  const kicks = new Map(); // User -> the OnKickedOffline frames it got, with errCode and errMsg

  async function devSignIn(account) {
    const r = await devServer.api('/accountLogin', { account, password, platform: 5, operationID: `op-${account}` });
    assert.equal(r.code, 0, `accountLogin ${account}: ${r.message}`);
    const u = new User(devServer, account, r.data);
    kicks.set(u, []);
    return u;
  }

  async function devConnect(u) {
    await u.connect();
    u.sdk.on(CbEvents.OnKickedOffline, (res) => kicks.get(u).push(res));
    return u;
  }

  async function devSignUp(name) {
    const account = `${name}${suffix}`;
    const reg = await devServer.api('/register', { account, password });
    assert.equal(reg.code, 0, `register ${account}: ${reg.message}`);
    return devConnect(await devSignIn(account));
  }

  let dan; // first device
  let dan2; // second device, same user, same platform
  let erin;

  before(async () => {
    devDir = mkdtempSync(join(tmpdir(), 'kj-sdk-devices-'));
    devServer = new Server(server.bin, join(devDir, 'data'), await freePort(), {
      KJ_LOGIN_POLICY: 'devices',
      KJ_LOGIN_MAX_DEVICES: '2',
    });
    await devServer.start();
    dan = await devSignUp('dan');
    erin = await devSignUp('erin');
    dan2 = await devConnect(await devSignIn(dan.account));
    await dan.call('addFriend', { toUserID: erin.id, reqMsg: 'hi' });
    await erin.waitEvent(CbEvents.OnFriendApplicationAdded);
    await erin.call('acceptFriendApplication', { toUserID: dan.id, handleMsg: 'ok' });
    await dan.waitEvent(CbEvents.OnFriendAdded);
  });

  after(async () => {
    for (const u of kicks.keys()) await within(u.sdk.logout(), 2000, 'logout').catch(() => undefined);
    await devServer?.stop();
    rmSync(devDir, { recursive: true, force: true });
  });

  test('two devices: a send on one is the other\'s own; a read on one clears unread and @ on both; draft, pin and do not disturb follow', { timeout: 60000 }, async () => {
    // The second sign-in on the same platform did not sign the first out.
    assert.equal(await dan.call('getLoginStatus'), 3);
    assert.equal(await dan2.call('getLoginStatus'), 3);
    assert.deepEqual(kicks.get(dan), []);
    const conv = single(dan.id, erin.id);

    // Sent from the first device: the second receives it as its user's own message.
    const sent = await dan.text('from my phone', erin.id);
    const echoed = await dan2.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === sent.clientMsgID);
    assert.equal(echoed.sendID, dan.id);
    assert.equal(echoed.recvID, erin.id);
    assert.equal(echoed.seq, sent.seq);
    assert.equal(echoed.textElem.content, 'from my phone');
    await dan2.waitAnyEvent([CbEvents.OnNewConversation, CbEvents.OnConversationChanged], (l) =>
      l.some((c) => c.conversationID === conv && JSON.parse(c.latestMsg).clientMsgID === sent.clientMsgID));
    const [mine] = await dan2.call('getMultipleConversation', [conv]);
    assert.equal(JSON.parse(mine.latestMsg).sendID, dan.id);
    assert.equal(mine.unreadCount, 0, 'one\'s own message is not unread on another device');
    await erin.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === sent.clientMsgID);

    // A mention in a group reaches both devices; reading on one clears unread and @ on both.
    const group = await erin.call('createGroup', { memberUserIDs: [dan.id], groupInfo: { groupName: 'Devices', needVerification: 2 } });
    const gconv = `sg_${group.groupID}`;
    const at = await erin.call('createTextAtMessage', {
      text: '@dan look',
      atUserIDList: [dan.id],
      atUsersInfo: [{ atUserID: dan.id, groupNickname: 'dan' }],
    });
    const atSent = await erin.call('sendMessage', { recvID: '', groupID: group.groupID, message: at });
    const pushed = [CbEvents.OnNewConversation, CbEvents.OnConversationChanged];
    for (const d of [dan, dan2]) {
      await d.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === atSent.clientMsgID);
      await d.waitAnyEvent(pushed, (l) => l.some((c) => c.conversationID === gconv && c.groupAtType === 1 && c.unreadCount === 1));
    }
    const total = await dan2.call('getTotalUnreadMsgCount');
    assert.ok(total >= 1);
    await dan.call('markConversationMessageAsRead', gconv);
    await dan2.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === gconv && c.unreadCount === 0 && c.groupAtType === 0));
    await dan2.waitEvent(CbEvents.OnTotalUnreadMessageCountChanged, (n) => n === total - 1);
    const [readThere] = await dan2.call('getMultipleConversation', [gconv]);
    assert.equal(readThere.unreadCount, 0);
    assert.equal(readThere.groupAtType, 0);

    // Draft, pin and do not disturb set on one device show on the other.
    await dan.call('setConversationDraft', { conversationID: conv, draftText: 'half a thought' });
    await dan2.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.draftText === 'half a thought'));
    await dan2.call('pinConversation', { conversationID: conv, isPinned: true });
    await dan.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === conv && c.isPinned));
    await dan.call('setConversationRecvMessageOpt', { conversationID: gconv, opt: 2 });
    await dan2.waitEvent(CbEvents.OnConversationChanged, (l) => l.some((c) => c.conversationID === gconv && c.recvMsgOpt === 2));
    const [pinned, quiet] = await dan2.call('getMultipleConversation', [conv, gconv]).then((l) =>
      [l.find((c) => c.conversationID === conv), l.find((c) => c.conversationID === gconv)]);
    assert.equal(pinned.isPinned, true);
    assert.equal(pinned.draftText, 'half a thought');
    assert.equal(quiet.recvMsgOpt, 2);
    // The other user's view is untouched.
    const [hers] = await erin.call('getMultipleConversation', [conv]);
    assert.equal(hers.isPinned, false);
    assert.equal(hers.draftText, '');
  });

  test('the device limit: a third sign-in signs out the oldest, told so in words of its own', { timeout: 60000 }, async () => {
    const third = await devConnect(await devSignIn(dan.account));
    await dan.waitEvent(CbEvents.OnKickedOffline);
    const [frame] = kicks.get(dan);
    assert.equal(frame.errCode, 1362);
    // The socket speaks the default language (no Accept-Language on it): zh-CN.
    assert.equal(frame.errMsg, serverText('zh-CN', 'chat.device.limit'));
    assert.notEqual(frame.errMsg, serverText('zh-CN', 'chat.kicked'));
    // The other two stay signed in and keep chatting.
    assert.deepEqual(kicks.get(dan2), []);
    const next = await erin.text('still there?', dan.id);
    for (const d of [dan2, third]) await d.waitEvent(CbEvents.OnRecvNewMessage, (m) => m.clientMsgID === next.clientMsgID);
    // The signed-out device's token answers 403 with the same words, not "logged in elsewhere".
    const r = await fetch(`${devServer.base}/api/user/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US', token: dan.tokens.token },
      body: '{}',
    }).then((x) => x.json());
    assert.equal(r.code, 403);
    assert.equal(r.message, serverText('en-US', 'logged.out.device.limit'));
    // Its chat token cannot sign a socket in again: the same code, a kick (4003), no retry.
    const frames = [];
    const ws = new WebSocket(`${devServer.ws}?sendID=${dan.id}&token=${encodeURIComponent(dan.tokens.chatToken)}&platformID=5&operationID=again`);
    ws.onmessage = (ev) => frames.push(JSON.parse(ev.data));
    const code = await within(new Promise((resolve) => (ws.onclose = (ev) => resolve(ev.code))), 10000, 'refused socket closes');
    assert.equal(code, 4003);
    assert.deepEqual(frames.map((f) => [f.event, f.errCode]), [['Login', 1362], ['OnKickedOffline', 1362]]);
  });
});

test('the platform policy (the default) is unchanged: a second sign-in kicks the first with "logged in elsewhere"', { timeout: 30000 }, async () => {
  const first = await signUp('fay');
  await first.connect();
  const kicked = [];
  first.sdk.on(CbEvents.OnKickedOffline, (res) => kicked.push(res));
  const second = await signIn(first.account);
  await second.connect();
  await first.waitEvent(CbEvents.OnKickedOffline);
  assert.equal(kicked[0].errCode, 1305);
  assert.equal(kicked[0].errMsg, serverText('zh-CN', 'chat.kicked'));
  await within(second.sdk.logout(), 2000, 'logout').catch(() => undefined);
});

// Chat over the gateway with k6/websockets: pairs of fixture users log in
// (the OpenIM SDK v3 frames of docs/PROTOCOL.md) and send each other text
// messages; each message carries its send time, so the receiver records
// send→deliver latency, and the sender records send→durable ack. Every
// message must arrive exactly once and in order (counted per pair).
import { check } from 'k6';
import { WebSocket } from 'k6/websockets';
import { Counter, Trend } from 'k6/metrics';
import { accounts, request, WS } from './lib.js';

const deliver = new Trend('kj_chat_deliver_ms', true);
const ack = new Trend('kj_chat_ack_ms', true);
const delivered = new Counter('kj_chat_delivered');
const sentOK = new Counter('kj_chat_acked');
const refused = new Counter('kj_chat_refused');
const misordered = new Counter('kj_chat_misordered');
const lost = new Counter('kj_chat_lost');

const PAIRS = Number(__ENV.PAIRS || 50);
const SECONDS = Number(__ENV.SECONDS || 20);
const PER_SECOND = Number(__ENV.PER_SECOND || 2); // messages per user per second
// `kjload k6` sizes PER_SECOND on the box before the run, so kj, PostgreSQL
// and k6 take half the cores by their measured CPU per message, and P99_MS
// (delivery and acknowledgement) as a multiple of an unloaded message's
// median (docs/PERFORMANCE.md#k6). The defaults are for a run by hand.
const P99_MS = Number(__ENV.P99_MS || 200);

export const options = {
  scenarios: {
    pairs: { executor: 'per-vu-iterations', vus: PAIRS * 2, iterations: 1, maxDuration: `${SECONDS + 30}s` },
  },
  thresholds: {
    checks: ['rate>0.99'],
    kj_chat_deliver_ms: [`p(99)<${P99_MS}`],
    kj_chat_ack_ms: [`p(99)<${P99_MS}`],
    kj_chat_refused: ['count==0'],
    kj_chat_misordered: ['count==0'],
    kj_chat_lost: ['count==0'],
  },
};

export default function () {
  const me = accounts[__VU - 1];
  const peer = accounts[(__VU - 1) ^ 1];
  const url = `${WS}/ws?sendID=${me.userId}&token=${encodeURIComponent(me.chatToken)}&platformID=5&operationID=k6-${__VU}`;
  const ws = new WebSocket(url);
  let expected = 0; // next number from the peer
  let sent = 0;
  let loggedIn = false;
  let timer = null;

  ws.onopen = () => {
    ws.send(request('Login', 'login', me.userId, [String(me.userId), me.chatToken]));
  };
  ws.onmessage = (e) => {
    const f = JSON.parse(e.data);
    if (f.event === 'Login') {
      loggedIn = f.errCode === 0;
      check(f, { 'logged in': (x) => x.errCode === 0 });
      if (!loggedIn) return ws.close();
      timer = setInterval(send, 1000 / PER_SECOND);
      setTimeout(finish, SECONDS * 1000);
      return;
    }
    if (f.event === 'SendMessage') {
      if (f.errCode !== 0) {
        refused.add(1);
        return;
      }
      sentOK.add(1);
      ack.add(Date.now() - Number(f.operationID.slice(1)));
      return;
    }
    if (f.event === 'OnRecvNewMessage') {
      const m = JSON.parse(f.data);
      const text = m.textElem && m.textElem.content;
      if (text && text.startsWith('k6end|')) {
        // The peer's last word: how many it sent. Anything not seen is lost.
        const total = Number(text.split('|')[1]);
        if (total > expected) lost.add(total - expected);
        return;
      }
      if (!text || !text.startsWith('k6|')) return;
      const [, n, at] = text.split('|');
      if (Number(n) !== expected) misordered.add(1);
      expected = Number(n) + 1;
      delivered.add(1);
      deliver.add(Date.now() - Number(at));
    }
  };

  function sendText(id, content) {
    const now = Date.now();
    const msg = {
      clientMsgID: id, createTime: now, sessionType: 1, sendID: String(me.userId), recvID: String(peer.userId),
      msgFrom: 100, contentType: 101, senderPlatformID: 5, status: 1, textElem: { content },
    };
    ws.send(request('SendMessage', `k${now}`, me.userId, [JSON.stringify(msg), String(peer.userId), '', '{}', false]));
  }

  function send() {
    sendText(`k6-${__VU}-${sent}`, `k6|${sent}|${Date.now()}`);
    sent++;
  }

  function finish() {
    clearInterval(timer);
    // Tell the peer how many we sent (it counts what it never got), and
    // leave time for its own count and last messages to arrive.
    sendText(`k6-${__VU}-end`, `k6end|${sent}`);
    setTimeout(() => ws.close(), 5000);
  }
}

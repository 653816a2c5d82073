// Bet burst: every fixture player bets once, spread over the first two
// seconds of a betting phase (W4's shape at k6 scale), through
// /api/activation/betRequest. setup() waits for window 1's next round to
// open so the burst lands in its first seconds.
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import exec from 'k6/execution';
import { accounts, api } from './lib.js';

const betAck = new Trend('kj_bet_ack_ms', true);
// Bets per second offered. W4's burst is 5,000/s; k6 spends about a
// millisecond of CPU per request, so on a 2-core box shared with kj and
// PostgreSQL it offers 500/s (1,000 bets); RATE=5000 runs W4's rate where
// k6 has cores of its own.
const RATE = Number(__ENV.RATE || 500);

export const options = {
  setupTimeout: '120s',
  scenarios: {
    burst: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: '2s',
      preAllocatedVUs: 200,
      maxVUs: 1000,
    },
  },
  // W4's burst targets: every bet accepted, p99 acknowledgement within
  // 100 ms.
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    kj_bet_ack_ms: ['p(99)<100'],
  },
};

export function setup() {
  const a = accounts[0];
  for (let i = 0; i < 600; i++) {
    const { env } = api('/activation/getNewLottery', { windowId: 1 }, a.token);
    if (env.code !== 0) throw new Error(`getNewLottery: ${env.message}`);
    const d = env.data;
    // The next round, committed during the rest before it: wait for it
    // to open, then burst.
    if (d.next && d.next.startsAt > d.serverTime + 200) {
      sleep((d.next.startsAt - d.serverTime) / 1000);
      return { issue: d.next.issue };
    }
    sleep(0.1);
  }
  throw new Error('no round opened within a minute');
}

export default function (round) {
  const i = exec.scenario.iterationInTest;
  const a = accounts[i % accounts.length];
  const { res, env } = api('/activation/betRequest', {
    windowId: 1, issue: round.issue, content: ['BIG', 'SMALL', 'SINGLE', 'DOUBLE'][i % 4], amount: 100 + (i % 50) * 10,
    betId: `k6-${round.issue}-${i}`,
  }, a.token);
  betAck.add(res.timings.duration);
  check(env, { 'bet accepted': (e) => e.code === 0 });
}

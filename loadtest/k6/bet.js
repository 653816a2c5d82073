// Bet burst: every fixture player bets once, spread over the first two
// seconds of a betting phase (W4's shape at k6 scale), through
// /api/activation/betRequest. setup() waits for window 1's next round to
// open so the burst lands in its first seconds.
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import exec from 'k6/execution';
import { accounts, api } from './lib.js';

const betAck = new Trend('kj_bet_ack_ms', true);
const RATE = Number(__ENV.RATE || 300); // bets per second

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
  thresholds: {
    checks: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    kj_bet_ack_ms: ['p(99)<500'],
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

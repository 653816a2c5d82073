// Bet burst: every fixture player bets once, spread over the first two
// seconds of a betting phase (W4's shape at k6 scale), through
// /api/activation/betRequest. setup() waits for window 1's next round to
// open so the burst lands in its first seconds.
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import exec from 'k6/execution';
import { accounts, api } from './lib.js';

const betAck = new Trend('kj_bet_ack_ms', true);
// Bets per second offered, and the p99 acknowledgement the burst must
// hold. `kjload k6` sizes both on the box before the run: RATE so kj,
// PostgreSQL and k6 (about a millisecond of CPU per request) take half the
// cores by their measured CPU per bet, P99_MS a multiple of an unloaded
// bet's median (docs/PERFORMANCE.md#k6). The defaults are for a run of the
// script by hand; RATE=5000 is W4's burst where k6 has cores of its own.
const RATE = Number(__ENV.RATE || 500);
const P99_MS = Number(__ENV.P99_MS || 100);

export const options = {
  setupTimeout: '120s',
  scenarios: {
    burst: {
      executor: 'constant-arrival-rate',
      rate: Math.max(1, Math.round(RATE)),
      timeUnit: '1s',
      duration: '2s',
      preAllocatedVUs: 200,
      maxVUs: 1000,
    },
  },
  // Every bet accepted, the p99 acknowledgement within P99_MS.
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    kj_bet_ack_ms: [`p(99)<${P99_MS}`],
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

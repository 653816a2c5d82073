// Login storm: sign-ins with account and password at a rising rate.
// Each sign-in costs an argon2id hash (~20 ms of a core here), so this
// measures how many sign-ins a node takes per second and what they cost
// the rest of the API. The server runs with KJ_TRUST_PROXY=true and each
// virtual user sends its own X-Forwarded-For, as clients behind a load
// balancer would (the per-address limit is 30 sign-ins a minute).
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { accounts, api } from './lib.js';

const signIn = new Trend('kj_sign_in_ms', true);
// The storm's peak rate (sign-ins per second) and the p99 it must hold.
// `kjload k6` sizes both on the box before the run: RATE so the sign-ins
// take half the cores by kj's measured CPU per sign-in, P99_MS a multiple
// of an unloaded sign-in's median (docs/PERFORMANCE.md#k6). The defaults
// are for a run of the script by hand.
const RATE = Number(__ENV.RATE || 40);
const P99_MS = Number(__ENV.P99_MS || 1000);

export const options = {
  scenarios: {
    storm: {
      executor: 'ramping-arrival-rate',
      startRate: Math.max(1, Math.round(RATE / 8)),
      timeUnit: '1s',
      preAllocatedVUs: 20,
      maxVUs: 100,
      stages: [
        { target: Math.max(1, Math.round(RATE / 2)), duration: '10s' },
        { target: Math.max(1, Math.round(RATE)), duration: '10s' },
      ],
    },
  },
  thresholds: {
    checks: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    kj_sign_in_ms: [`p(99)<${P99_MS}`],
  },
};

export default function () {
  const i = Math.floor(Math.random() * accounts.length);
  const a = accounts[i];
  const ip = `10.${(__VU >> 8) & 255}.${__VU & 255}.${__ITER & 255}`;
  const { res, env } = api('/accountLogin', { account: a.account, password: a.password, platform: 1 }, null, { 'X-Forwarded-For': ip });
  signIn.add(res.timings.duration);
  check(env, {
    'signed in': (e) => e.code === 0,
    'tokens issued': (e) => e.code === 0 && !!e.data.token && !!e.data.chatToken,
  });
}

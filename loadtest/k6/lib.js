// Shared helpers of the k6 scripts. `kjload k6` starts kj on a fresh
// PostgreSQL schema, loads the bulk fixture (accounts with live sessions
// and funded wallets) and runs a script with:
//   BASE_URL  http://127.0.0.1:<port>   the API
//   WS_URL    ws://127.0.0.1:<port>     the chat gateway
//   ACCOUNTS  path of the fixture's accounts JSON
//             [{userId, account, password, token, jwt, chatToken}]
import http from 'k6/http';
import { SharedArray } from 'k6/data';

export const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const WS = __ENV.WS_URL || BASE.replace(/^http/, 'ws');

export const accounts = new SharedArray('accounts', () => JSON.parse(open(__ENV.ACCOUNTS)));

// api posts to /api<path> and returns the envelope {code, message, data}
// (code -1 when the reply is not an envelope).
export function api(path, body, token, extraHeaders) {
  const headers = Object.assign({ 'Content-Type': 'application/json', 'Accept-Language': 'en-US' }, extraHeaders || {});
  if (token) headers.token = token;
  const res = http.post(`${BASE}/api${path}`, body === undefined ? null : JSON.stringify(body), { headers, tags: { route: path } });
  let env;
  try {
    env = res.json();
  } catch {
    env = { code: -1, message: String(res.status), data: null };
  }
  return { res, env };
}

// request is one chat protocol frame: data is the JSON array of the
// positional arguments, itself a string (docs/PROTOCOL.md).
export function request(name, operationID, userID, args) {
  return JSON.stringify({ reqFuncName: name, operationID, userID: String(userID), data: JSON.stringify(args) });
}

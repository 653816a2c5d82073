// Helpers of the account flows: calls to the real API from Node (to prepare data the way a
// second device or an operator would), `kj admin create-operator` on the server's store, and
// signing in through the UI.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** A short random suffix for account names (accounts are 4-20 of A-Z a-z 0-9 _). */
export function uniqueName(prefix) {
  return `${prefix}${randomBytes(4).toString('hex')}`.slice(0, 20);
}

/**
 * An address of the 10.0.0.0/8 block for one flow run: the server trusts X-Forwarded-For in
 * the e2e runs, so a flow's registrations and sign-ins count against their own address.
 */
export function flowAddress() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2] || 1}`;
}

/** POST /api<path> with a JSON body; resolves with the envelope, whatever its code. */
export async function apiCall(baseURL, path, body = {}, { token, language = 'en-US', address } = {}) {
  const headers = { 'Content-Type': 'application/json', 'Accept-Language': language };
  if (token) headers.token = token;
  if (address) headers['X-Forwarded-For'] = address;
  const response = await fetch(new URL(`/api${path}`, baseURL), {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const envelope = await response.json();
  if (typeof envelope?.code !== 'number') throw new Error(`${path}: not an envelope (HTTP ${response.status})`);
  return envelope;
}

/** Like apiCall but fails unless the code is 0; resolves with data. */
export async function apiData(baseURL, path, body = {}, options = {}) {
  const envelope = await apiCall(baseURL, path, body, options);
  if (envelope.code !== 0) throw new Error(`${path}: code ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export async function registerUser(baseURL, { account, password, inviteCode, address }) {
  const body = { account, password, confirmPassword: password };
  if (inviteCode) body.inviteCode = inviteCode;
  return apiData(baseURL, '/register', body, { address });
}

export async function signInApi(baseURL, { account, password, address }) {
  return apiData(baseURL, '/accountLogin', { account, password, platform: 5, operationID: 'e2e' }, { address });
}

/** `kj admin create-operator` against the running server's store (KJ_DATA_DIR). */
export function createOperator(t, { account, password }) {
  if (!t.kjBin || !t.dataDir) throw new Error('the runner did not pass kjBin and dataDir');
  const run = spawnSync(t.kjBin, ['admin', 'create-operator', '--account', account, '--password', '-'], {
    env: { ...process.env, KJ_DATA_DIR: t.dataDir },
    input: `${password}\n`,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) {
    throw new Error(`kj admin create-operator exited ${run.status}: ${run.stderr || run.stdout}`);
  }
}

/** An operator account with a signed-in token (for /api/admin/...). */
export async function operatorSession(t, address) {
  const account = uniqueName('op_');
  const password = 'opPass123';
  createOperator(t, { account, password });
  const tokens = await signInApi(t.baseURL, { account, password, address });
  return { account, token: tokens.token };
}

export async function publishNotice(t, operator, { title, content, address }) {
  return apiData(t.baseURL, '/admin/notice/publish', { title, content }, { token: operator.token, address });
}

/** Fills the sign-in tab of the login page and submits it. */
export async function signInThroughUi(t, { account, password }) {
  const { page } = t;
  await page.getByLabel(t.text('pages.login.account'), { exact: true }).fill(account);
  await page.getByLabel(t.text('pages.login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t.text('pages.login.submit'), exact: true }).tap();
}

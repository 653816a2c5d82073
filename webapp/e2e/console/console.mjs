// The operator console in the browser tests: a desktop browser context (1280 x 800) in the
// run's language, the console's own texts (webapp/admin/i18n), and signing in at /admin/login.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const localesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'admin', 'i18n');

/** The console's text `key` in `language`, with {{name}} placeholders filled. */
export function consoleTexts(language) {
  const tree = JSON.parse(readFileSync(join(localesDir, `${language}.json`), 'utf8'));
  return (key, values = {}) => {
    let node = tree;
    for (const part of key.split('.')) node = node && typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no console text ${key} in ${language}`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => String(values[name] ?? ''));
  };
}

/**
 * A desktop context for one operator, in the run's language. Page errors and console errors
 * are collected in `errors`; `check()` throws when any came since the last check.
 */
export async function openConsole(t) {
  const browser = t.page.context().browser();
  const context = await browser.newContext({
    baseURL: t.baseURL,
    viewport: { width: 1280, height: 800 },
    locale: t.language,
    reducedMotion: 'reduce',
  });
  await context.addInitScript((lng) => {
    if (!window.localStorage.getItem('kj.admin.lang')) window.localStorage.setItem('kj.admin.lang', lng);
  }, t.language);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  let checked = 0;
  return {
    context,
    page,
    errors,
    text: consoleTexts(t.language),
    check() {
      const fresh = errors.slice(checked);
      checked = errors.length;
      if (fresh.length > 0) throw new Error(fresh.join('\n'));
    },
    async screenshot(name) {
      await page.screenshot({ path: t.screenshotPath(name), fullPage: false });
    },
    close: () => context.close().catch(() => undefined),
  };
}

/** Signs in at /admin/login and waits for the dashboard. */
export async function consoleSignIn(t, console_, { account, password }) {
  const { page, text } = console_;
  await page.goto(t.url('/admin/login'));
  await page.getByLabel(text('login.account'), { exact: true }).fill(account);
  await page.getByLabel(text('login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: text('login.submit'), exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/admin/' || url.pathname === '/admin');
}

/** Answers the open confirmation dialog (with a reason when given) and waits for it to close. */
export async function confirmDialog(console_, reason) {
  const dialog = console_.page.getByRole('dialog');
  await dialog.waitFor();
  if (reason !== undefined) await dialog.getByRole('textbox').fill(reason);
  await dialog.getByTestId('confirm-ok').click();
  await dialog.waitFor({ state: 'detached' });
}

/** POST /api<path> with a token; resolves with the HTTP status and the envelope. */
export async function rawCall(baseURL, path, body, token) {
  const response = await fetch(new URL(`/api${path}`, baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', token },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, envelope: await response.json() };
}

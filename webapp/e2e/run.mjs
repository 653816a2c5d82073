#!/usr/bin/env node
// Browser smoke tests against the real Go server.
//
//   KJ_BIN=./bin/kj npm run e2e
//
// Environment:
//   KJ_BIN         path to the built kj binary (required)
//   CHROMIUM       Chromium executable (default /usr/bin/chromium)
//   E2E_LANGUAGES  comma-separated product languages (default zh-CN,en-US)
//   E2E_FLOWS      comma-separated flow file names to run (default: all, in name order)
//   E2E_FLOW_DIR   directory of the flows, relative to webapp/e2e (default flows; the
//                  cluster flows under cluster/ are run by `scripts/cluster.sh --check`)
//   E2E_BASE_URL   run the flows against this running server (e.g. a cluster's load
//                  balancer) instead of starting one; flows that need their own server
//                  are refused then
//   E2E_LANES      1 runs every flow one after another; 2 (the default) runs the flows
//                  that share one server in one lane and the flows with a server of their
//                  own in a second lane at the same time
//
// Every `flows/*.mjs` exports a default async function (t) => {...} and runs once per
// language in a fresh browser context. The last line printed is "N passed, M failed".
// A flow that needs its own server exports `server = { env: {...}, demo: true }`: it gets a
// fresh `kj serve` with those variables (and `kj seed --demo` first), for all its languages.
// A flow that holds the page to a time budget exports `alone = true`: it runs after both
// lanes are done, with the box to itself.
import { accessSync, constants, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAttempt, createFlowContext, createReport, e2eDir, launchBrowser, openSession, SERVER_ENV, startServer } from './lib.mjs';

/** A problem with how the runner was started: reported without a stack trace. */
class UsageError extends Error {}

const report = createReport();
let server = null;
/** Tests that failed once and passed when their flow ran again. */
const flaky = [];
/** The servers of flows that need their own, while they run. */
const flowServers = new Set();
let browser = null;

async function cleanup() {
  if (browser) {
    const b = browser;
    browser = null;
    await b.close().catch(() => undefined);
  }
  for (const s of [server, ...flowServers]) if (s) await s.stop().catch(() => undefined);
  server = null;
  flowServers.clear();
}

// A step that fails can leave a wait it started behind (page.waitForResponse and the like);
// closing the flow's browser context then rejects it with nobody listening. Such a rejection
// fails the attempts that are running (so their flows get their retry) instead of ending the
// whole run with node's unhandled-rejection crash. With two lanes the rejection cannot be
// told apart by lane, so both running attempts fail and run again: a retry too many is
// cheaper than a failure put on the wrong flow.
const runningAttempts = new Set();
process.on('unhandledRejection', (error) => {
  if (runningAttempts.size === 0) {
    report.fail('runner (a promise rejected with nobody waiting)', error);
    return;
  }
  for (const attempt of runningAttempts) attempt.report.fail(`${attempt.label} (a promise rejected with nobody waiting)`, error);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

function listFlows() {
  const dir = join(e2eDir, process.env.E2E_FLOW_DIR || 'flows');
  const only = (process.env.E2E_FLOWS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.mjs'))
    .filter((file) => only.length === 0 || only.includes(file) || only.includes(basename(file, '.mjs')))
    .sort()
    .map((file) => ({ name: basename(file, '.mjs'), path: join(dir, file) }));
}

async function main() {
  const bin = process.env.KJ_BIN;
  if (!bin) {
    throw new UsageError('KJ_BIN is not set: point it at the built kj binary, e.g. KJ_BIN=./bin/kj npm run e2e');
  }
  const binPath = resolve(bin);
  try {
    accessSync(binPath, constants.X_OK);
  } catch {
    throw new UsageError(`KJ_BIN=${bin} is not an executable file`);
  }
  const languages = (process.env.E2E_LANGUAGES ?? 'zh-CN,en-US')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const flows = listFlows();
  if (flows.length === 0) throw new UsageError(`no flows found under webapp/e2e/${process.env.E2E_FLOW_DIR || 'flows'}`);

  const modules = new Map();
  for (const flow of flows) modules.set(flow.name, await import(pathToFileURL(flow.path).href));
  const alone = flows.filter((flow) => modules.get(flow.name).alone === true);
  const laned = flows.filter((flow) => modules.get(flow.name).alone !== true);
  const shared = laned.filter((flow) => !modules.get(flow.name).server);
  const own = laned.filter((flow) => modules.get(flow.name).server);
  const external = process.env.E2E_BASE_URL;
  const needOwn = flows.filter((flow) => modules.get(flow.name).server);
  if (external && needOwn.length > 0) {
    throw new UsageError(`E2E_BASE_URL is set but ${needOwn.map((f) => f.name).join(', ')} need a server of their own`);
  }

  browser = await launchBrowser();
  console.log(`chromium ${browser.version()}`);

  const runFlowOnce = async (flow, target, language, report) => {
    const module = modules.get(flow.name);
    if (typeof module.default !== 'function') {
      report.fail(`[${language}] ${flow.name}`, new Error('a flow must export a default function'));
      return;
    }
    const running = { label: `[${language}] ${flow.name}`, report };
    runningAttempts.add(running);
    const session = await openSession(browser, { baseURL: target.baseURL, language });
    const t = createFlowContext({
      flowName: flow.name,
      language,
      baseURL: target.baseURL,
      session,
      report,
      server: target,
      kjBin: binPath,
      dataDir: target.dataDir,
      browser,
    });
    try {
      await module.default(t);
    } catch (error) {
      report.fail(`[${language}] ${flow.name} (outside a test)`, error);
    } finally {
      await t.dispose();
      await session.context.close().catch(() => undefined);
      // Rejections caused by the close are delivered after a turn of the event loop; they
      // still belong to this attempt.
      await new Promise((done) => setImmediate(done));
      runningAttempts.delete(running);
    }
  };

  // A flow that fails runs once more in a fresh browser context; only the second attempt's
  // results count. The box CI runs on is small and shared, and one timing-dependent step lost
  // whole runs before. The first attempt's failures are still printed in full and counted as
  // flaky in the last line, so a flow that needed its retry is never silent.
  const runFlow = async (flow, target, language) => {
    const first = createAttempt();
    await runFlowOnce(flow, target, language, first);
    if (first.failures.length === 0) {
      first.replayInto(report);
      return;
    }
    for (const { name, error } of first.failures) {
      console.log(`RETRY ${name}: failed on the first attempt, running the flow again`);
      console.log(String(error instanceof Error ? (error.stack ?? error.message) : error).replace(/^/gm, '     '));
    }
    const second = createAttempt();
    await runFlowOnce(flow, target, language, second);
    if (second.failures.length === 0) flaky.push(...first.failures.map((f) => f.name));
    second.replayInto(report);
  };

  let sharedTarget = null;
  const sharedServer = async () => {
    if (!sharedTarget && external) {
      sharedTarget = { baseURL: new URL(external).origin, dataDir: process.env.KJ_DATA_DIR ?? '', logTail: () => '' };
      console.log(`running against ${sharedTarget.baseURL}`);
    } else if (!sharedTarget) {
      server = await startServer(binPath, { env: SERVER_ENV });
      sharedTarget = server;
      console.log(`kj serve is healthy at ${server.baseURL}`);
    }
    return sharedTarget;
  };
  const sharedLane = async () => {
    if (shared.length === 0) return;
    const target = await sharedServer();
    for (const language of languages) for (const flow of shared) await runFlow(flow, target, language);
  };
  // The flows with a server of their own wait in one queue that both lanes take from, so a
  // lane that is done with the shared server's flows helps with these.
  const ownLane = async (queue) => {
    for (let flow = queue.shift(); flow; flow = queue.shift()) {
      const options = modules.get(flow.name).server;
      const flowServer = await startServer(binPath, { env: { ...SERVER_ENV, ...options.env }, demo: Boolean(options.demo) });
      flowServers.add(flowServer);
      console.log(`kj serve for ${flow.name} is healthy at ${flowServer.baseURL}`);
      const failedBefore = report.failures.length;
      try {
        for (const language of languages) await runFlow(flow, flowServer, language);
      } finally {
        if (report.failures.slice(failedBefore).some((f) => f.name.includes(`] ${flow.name}`))) {
          console.log(`--- kj serve log of ${flow.name} (tail) ---`);
          console.log(flowServer.logTail());
        }
        await flowServer.stop().catch(() => undefined);
        flowServers.delete(flowServer);
      }
    }
  };
  // The flows that share a server and the flows with a server of their own never touch the
  // same server, so the two lanes run at once; a lane's results are printed a whole attempt
  // at a time (see createAttempt), so its lines never interleave with the other's.
  const queue = [...own];
  if ((process.env.E2E_LANES ?? '2') === '1') {
    await sharedLane();
    await ownLane(queue);
  } else {
    const lanes = await Promise.allSettled([sharedLane().then(() => ownLane(queue)), ownLane(queue)]);
    for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
  }
  // Then the flows with a time budget, one at a time with nothing beside them.
  for (const flow of alone) {
    if (modules.get(flow.name).server) await ownLane([flow]);
    else {
      const target = await sharedServer();
      for (const language of languages) await runFlow(flow, target, language);
    }
  }
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  report.fail('setup', error instanceof UsageError ? error.message : error);
} finally {
  if (report.failed > 0 && server) {
    console.log('--- kj serve log (tail) ---');
    console.log(server.logTail());
  }
  await cleanup();
}
if (report.failed > 0 || report.passed === 0) exitCode = 1;
if (flaky.length > 0) console.log(`flaky (passed when their flow ran again): ${flaky.join('; ')}`);
console.log(`${report.passed} passed, ${report.failed} failed${flaky.length > 0 ? `, ${flaky.length} flaky` : ''}`);
process.exit(exitCode);

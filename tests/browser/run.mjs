// The browser stage's runner: starts Debian's Chromium ONCE (playwright's browser server) and runs the test
// files in parallel, each as its own `node --test FILE` process that connects to it (harness.mjs launch());
// every test opens its own BrowserContext, so storage, URL and permissions stay per test. A file's output is
// printed whole when it ends (never interleaved); the stage fails if any file fails or no test ran.
// Usage: node tests/browser/run.mjs [FILE...]   (default: every tests/browser/*.test.mjs)
// LLM_MEMORY_BROWSER_JOBS: files at a time (default: what the idle cores carry, 1 to 6; see defaultJobs).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, playwrightDisabledFeatures, repoRoot } from './harness.mjs';

const testDir = path.join(repoRoot, 'tests/browser');
const timesFile = path.join(repoRoot, 'build/browser-test-seconds.json');  // last durations: longest file first

// State one Chromium keeps for all its contexts: the clipboard (headless Chromium has one, browser-wide).
// A file whose text names it runs while no other such file runs.
const BROWSER_WIDE = [['clipboard', /clipboard/i]];

// Files at a time: as many as the cores other processes leave idle can carry, 1 to 6. A file keeps about
// 0.3 of a core busy (113 CPU seconds over the 297 s the files took one after another on an idle machine,
// 0.38, before the tests waited for the page's idle() instead of 600 ms without a frame; the stage's CPU
// seconds fell by a third with that, 136 to 88 at 4 and 6 at a time: bench/SUITE.md). Files started beyond that only slow each other down until the pages' waits time out (the stage failed
// with 4 at a time at load average 50 to 67 on 2 cores; it passed one at a time at that load).
// Idle is measured over the second before the start, not read from the load average: the one-minute load
// average still counts the page build that scripts/test runs just before this stage (1.4 on an idle 2-core
// machine, which ran the files one at a time: 265 s where 4 at a time take about 80 s).
const CORES_PER_FILE = 0.3;
const cpuTimes = () => os.cpus().reduce((t, c) => {
  const busy = c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return { busy: t.busy + busy, all: t.all + busy + c.times.idle };
}, { busy: 0, all: 0 });
async function defaultJobs() {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = cpuTimes();
  const all = after.all - before.all;
  const busyCores = all > 0 ? ((after.busy - before.busy) / all) * cores : 0;
  const idle = Math.max(0, cores - busyCores);
  return { jobs: Math.max(1, Math.min(6, Math.floor(idle / CORES_PER_FILE))), why: `${idle.toFixed(1)} of ${cores} cores idle` };
}

async function parseJobs(text) {
  if (text === undefined || text === '') return defaultJobs();
  if (!/^[1-9][0-9]*$/.test(text)) {
    console.error(`browser: LLM_MEMORY_BROWSER_JOBS must be a whole number from 1 (got "${text}")`);
    process.exit(2);
  }
  return { jobs: Number(text), why: 'LLM_MEMORY_BROWSER_JOBS' };
}

function readTimes() {
  try { return JSON.parse(fs.readFileSync(timesFile, 'utf8')); } catch { return {}; }
}
// This run's durations join the file's as it is now (another runner of this tree may have written its own
// since this one started: those stay), and the file is replaced whole by a rename, so a runner starting
// meanwhile never reads it half written (which reads as {}: no durations, no longest-first order).
function writeTimes(entries) {
  const times = { ...readTimes(), ...Object.fromEntries(entries) };
  fs.mkdirSync(path.dirname(timesFile), { recursive: true });
  const temporary = `${timesFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(times, null, 2) + '\n');
  fs.renameSync(temporary, timesFile);
}

const children = new Set();
// One file in its own node process; resolves { file, ok, seconds, counts, output }.
function runFile(file, env) {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      children.delete(child);
      const output = Buffer.concat(chunks).toString('utf8');
      const counts = {};
      for (const key of ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) {
        const all = [...output.matchAll(new RegExp(`^\\S* ?${key} (\\d+)$`, 'gm'))];  // the summary's line (the last)
        counts[key] = all.length ? Number(all[all.length - 1][1]) : null;
      }
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const ok = code === 0 && counts.tests > 0 && counts.fail === 0 && counts.cancelled === 0;
      resolve({ file, ok, seconds, counts, output, exit: signal ? `signal ${signal}` : `exit ${code}` });
    });
  });
}

// Starts Chromium once and serves it to the test processes over a websocket: { wsEndpoint, local, pid,
// onClose(fn), close() }. playwright's launchServer() takes every client for a remote one, so a file given to
// setInputFiles is copied through the socket (model_file's 1 GiB sparse GGUF: minutes and a 1 GiB temporary
// copy, where a browser the test launched itself reads only the header). The test processes run on this
// machine: the browser is launched by this process's playwright, which knows its client shares the machine,
// and handed to the same server launchServer() uses (playwright-core's PlaywrightServer); harness.mjs then
// marks its connection local (LLM_MEMORY_BROWSER_LOCAL=1). These are playwright-core internals of the version
// package-lock.json pins; without them the runner falls back to launchServer() (slower uploads) and says so.
async function startSharedBrowser(launchOptions) {
  let browser;
  try {
    const { remote } = createRequire(import.meta.url)('playwright-core/lib/coreBundle');
    browser = await chromium.launch(launchOptions);
    const impl = browser._connection.toImpl?.(browser);
    if (typeof remote?.PlaywrightServer !== 'function' || !impl?.options?.browserProcess) throw new Error('playwright-core internals changed');
    const server = new remote.PlaywrightServer({ mode: 'launchServer', path: `/${randomUUID()}`, maxConnections: Infinity, preLaunchedBrowser: impl });
    const wsEndpoint = await server.listen(0, '127.0.0.1');
    return {
      wsEndpoint, local: true, pid: impl.options.browserProcess.process?.pid,
      onClose: (fn) => browser.on('disconnected', fn),
      close: async () => { await server.close(); await browser.close(); },
    };
  } catch (err) {
    await browser?.close();
    console.log(`browser: no shared local browser (${err.message}); files given to setInputFiles are copied to it`);
    const server = await chromium.launchServer(launchOptions);
    return {
      wsEndpoint: server.wsEndpoint(), local: false, pid: server.process().pid,
      onClose: (fn) => server.on('close', fn), close: () => server.close(),
    };
  }
}

async function main() {
  const args = process.argv.slice(2);
  let files = args.length
    ? args.map((f) => path.resolve(f))
    : fs.readdirSync(testDir).filter((f) => f.endsWith('.test.mjs')).map((f) => path.join(testDir, f));
  for (const f of files) {
    if (!fs.existsSync(f)) { console.error(`browser: no test file ${f}`); process.exit(2); }
  }
  const { jobs, why } = await parseJobs(process.env.LLM_MEMORY_BROWSER_JOBS);
  const known = readTimes();
  const rel = (f) => path.relative(repoRoot, f);
  // Longest first (the last run's durations; unknown files first of all), so the slowest file never starts last.
  files = files.sort((a, b) => (known[rel(b)] ?? Infinity) - (known[rel(a)] ?? Infinity) || a.localeCompare(b));

  const start = process.hrtime.bigint();
  const shared = await startSharedBrowser({
    executablePath: process.env.LLM_MEMORY_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS.filter((a) => a !== '--headless'),
    headless: true,
  });
  let closing = false;
  // Interrupted (Ctrl-C, a timeout): end the test processes and the browser, then exit.
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, async () => {
      for (const child of children) child.kill('SIGKILL');
      closing = true;
      await shared.close().catch(() => {});
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
  let browserGone = false;
  shared.onClose(() => { if (!closing) browserGone = true; });
  const env = { ...process.env, LLM_MEMORY_BROWSER_WS: shared.wsEndpoint, LLM_MEMORY_BROWSER_LOCAL: shared.local ? '1' : '' };
  console.log(`browser: ${files.length} files, ${jobs} at a time (${why}), one Chromium (pid ${shared.pid})`);
  if (!playwrightDisabledFeatures()) console.log('browser: playwright-core\'s feature list not found: the omnibox WebUI stays on (harness.mjs)');

  const results = [];
  const report = (r) => {
    results.push(r);
    const c = r.counts;
    const tail = `${r.seconds.toFixed(1)} s, ${c.tests ?? '?'} tests, ${c.pass ?? '?'} passed`;
    if (r.ok) {
      process.stdout.write(`  ok ${rel(r.file)} (${tail})\n`);
      if (process.env.LLM_MEMORY_BROWSER_VERBOSE) process.stdout.write(r.output);
    } else {
      process.stdout.write(`  FAILED ${rel(r.file)} (${tail}, ${c.fail ?? '?'} failed, ${r.exit})\n${r.output}\n`);
    }
  };
  // Files that touch browser-wide state (not per context) hold it while they run: one such file at a time.
  const needs = new Map(files.map((f) => {
    const text = fs.readFileSync(f, 'utf8');
    return [f, BROWSER_WIDE.filter(([, pattern]) => pattern.test(text)).map(([name]) => name)];
  }));
  const held = new Set();
  const pending = [...files];
  let running = 0;
  const pool = new Promise((resolveAll) => {
    const next = () => {
      while (running < jobs) {
        const i = pending.findIndex((f) => needs.get(f).every((n) => !held.has(n)));
        if (i < 0) break;
        const file = pending.splice(i, 1)[0];
        for (const n of needs.get(file)) held.add(n);
        running++;
        runFile(file, env).then((r) => {
          for (const n of needs.get(file)) held.delete(n);
          running--;
          report(r);
          next();
        });
      }
      if (running === 0 && pending.length === 0) resolveAll();
    };
    next();
  });
  try {
    await pool;
  } finally {
    closing = true;
    await shared.close();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const sum = (k) => results.reduce((s, r) => s + (r.counts[k] ?? 0), 0);
  const failedFiles = results.filter((r) => !r.ok);
  writeTimes(results.map((r) => [rel(r.file), Math.round(r.seconds * 10) / 10]));
  console.log(`browser: ${results.length} files, ${sum('tests')} tests, ${sum('pass')} passed, ${sum('fail')} failed` +
    `${sum('cancelled') ? `, ${sum('cancelled')} cancelled` : ''}${sum('skipped') ? `, ${sum('skipped')} skipped` : ''}` +
    ` in ${seconds.toFixed(1)} s (${jobs} at a time)`);
  if (browserGone && failedFiles.length) console.log('browser: the shared Chromium exited during the run');
  if (failedFiles.length) {
    console.log(`browser: FAILED: ${failedFiles.map((r) => rel(r.file)).join(' ')}`);
    process.exit(1);
  }
}

main().catch((err) => { console.error(err); process.exit(1); });

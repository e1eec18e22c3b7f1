// Shared browser-test harness: serves build/web/site on a free port and launches Debian's Chromium
// headless (WebGL2 through SwiftShader) with playwright-core. Collects console errors and requests.
// Environment: LLM_MEMORY_SITE_DIR (default build/web/site), LLM_MEMORY_SINGLE_FILE (default
// build/web/llm-memory.html), LLM_MEMORY_CLI (default build/native/llm-memory), LLM_MEMORY_SERVER=python
// (serve with python3 -m http.server instead of scripts/serve.mjs).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = path.resolve(process.env.LLM_MEMORY_SITE_DIR || path.join(repoRoot, 'build/web/site'));
export const singleFile = path.resolve(process.env.LLM_MEMORY_SINGLE_FILE || path.join(siteDir, '..', 'llm-memory.html'));
export const cliPath = path.resolve(process.env.LLM_MEMORY_CLI || path.join(repoRoot, 'build/native/llm-memory'));
export const shotDir = path.join(repoRoot, 'build/screenshots');

// Per-window work no test looks at. Chromium 156 draws its toolbar's omnibox popup in WebUI: every browser
// window, so every context a test opens, started a renderer for chrome://omnibox-popup.top-chrome/ (and its
// AI-mode variant), which kept working while the page loaded. And each context started a spare renderer
// for a next navigation that mostly never came. Both off: a context that loads the app and waits for idle()
// cost 2.9 to 3.0 CPU s, now 1.6 to 1.7 (10 contexts, CPU seconds of the whole process tree, the omnibox
// 1.2 s of it; bench/SUITE.md's eighth pass). Chromium keeps only the last --disable-features (see
// CHROMIUM_ARGS), so the flag repeats playwright-core's own list, read from the pinned bundle's source; when
// it cannot be read, the flag is left out (the tests only cost more) and run.mjs says so.
const OFF_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'SpareRendererForSitePerProcess'];
export function playwrightDisabledFeatures() {
  try {
    const bundle = fs.readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle);
    const names = list ? [...list[1].matchAll(/^\s*"([A-Za-z0-9_]+)",?\s*$/gm)].map((m) => m[1]) : [];
    return names.includes('MediaRouter') ? names : null;  // one it has listed for years: the list was found
  } catch {
    return null;
  }
}
function disabledFeaturesArgs() {
  const theirs = playwrightDisabledFeatures();
  return theirs ? [`--disable-features=${[...theirs, ...OFF_FEATURES].join(',')}`] : [];
}

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // No network in tests. Chromium asks content-autofill.googleapis.com about the forms of every page, from the
  // page's context (hub.test.mjs's proxy refused 71 of them in one run of its 8 tests): its queries go to a
  // closed local port instead (a net log shows them there). Not --disable-features=AutofillServerCommunication:
  // Chromium keeps only the last --disable-features, so it dropped playwright's own list, and the
  // OptimizationHints and NetworkTimeServiceQuerying requests that list turns off were back in a net log.
  '--autofill-server-url=http://127.0.0.1:9/',
  ...disabledFeaturesArgs(),
];

// How often a wait re-reads the page: a timer every POLL_MS ms, never playwright's default of once per
// animation frame. A settled page draws nothing, and Chromium serves an idle page's requestAnimationFrame
// late when the shared browser is busy: in the stage at 6 files at a time, an idle page's callbacks took up
// to 3.4 s to come while its timers ran at most 167 ms late (bench/SUITE.md, the seventh pass). Polled per
// frame, waitForIdle timed out on pages whose idle() had been true for seconds. Pass { polling: POLL_MS }.
export const POLL_MS = 50;

// The browser a test file uses. Under the stage's runner (tests/browser/run.mjs) every file connects to the
// one Chromium it started (LLM_MEMORY_BROWSER_WS); `node --test FILE` alone launches its own. Either way
// browser.close() in the file's after() ends only that file's share (a connected browser disconnects and
// closes the contexts it made). Give every test its own context (openPage does): storage, URL and
// permissions are per context; files run at the same time in one browser.
export async function launch() {
  if (process.env.LLM_MEMORY_BROWSER_WS) {
    const browser = await chromium.connect(process.env.LLM_MEMORY_BROWSER_WS);
    // The runner's browser runs on this machine (LLM_MEMORY_BROWSER_LOCAL=1, see startSharedBrowser in
    // run.mjs): hand it file paths as launch() does, instead of copying each file through the socket.
    if (process.env.LLM_MEMORY_BROWSER_LOCAL === '1' && typeof browser._connection?.isRemote === 'function') browser._connection._isRemote = false;
    return browser;
  }
  // playwright-core gives every launch a fresh temporary profile (the --user-data-dir of TOOLCHAIN.md).
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS.filter((a) => a !== '--headless'),
    headless: true,
  });
  return browser;
}

export async function serveSite(dir = siteDir) {
  if (process.env.LLM_MEMORY_SERVER === 'python') return startPythonServer(dir);
  return startServer(dir, 0);
}

// LLM_MEMORY_SERVER=python: `python3 -m http.server` on a free port, a plain static server as a web host
// would run (its own MIME types: .wasm is application/wasm). Resolves once it prints its port.
function startPythonServer(dir) {
  const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`python3 -m http.server exited (${code}): ${seen}`)));
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = /port (\d+)/.exec(seen);
      if (!m) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      child.removeAllListeners('exit');
      const close = () => new Promise((r) => { if (child.exitCode !== null) r(); else { child.once('exit', r); child.kill(); } });
      resolve({ url: `http://127.0.0.1:${m[1]}/`, close });
    });
    child.stderr.resume();  // the request log
  });
}

// The page's console errors and uncaught exceptions from now on, in an array the caller keeps (and that
// waitForIdle's timeout message quotes: an exception in the main loop's tick stops the loop unpaused).
const errorsOf = new WeakMap();
export function watchErrors(page) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  errorsOf.set(page, errors);
  return errors;
}

// Opens a page and records console errors, page errors and every request URL. options: deviceScaleFactor,
// colorScheme, isMobile, hasTouch (the browser context's), initScript (run before the page's scripts),
// fileChooser (intercept file pickers from the start, so page.waitForEvent('filechooser') sees the app's
// picker: Playwright turns interception on when the first listener is added, with a message it does not
// wait for, and a page that opens its picker in the frame after the click can beat a listener added at
// the click; added before the page is loaded, its CDP message precedes the navigation's).
export async function openPage(browser, url, viewport = { width: 1280, height: 800 }, options = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: options.deviceScaleFactor ?? 1, colorScheme: options.colorScheme ?? 'dark',
    isMobile: options.isMobile ?? false, hasTouch: options.hasTouch ?? false });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  if (options.fileChooser) page.on('filechooser', () => {});
  const errors = watchErrors(page);
  const requests = [];
  page.on('request', (req) => requests.push(req.url()));
  await page.goto(url);
  return { context, page, errors, requests };
}

// openPage, then waits for the app: its first frames, or (view=text, where the text view takes the
// hidden canvas's place on phones and in embeds and the canvas draws nothing) its API.
export async function openReady(browser, url, viewport, options) {
  const opened = await openPage(browser, url, viewport, options);
  if (/view=text/.test(url)) await waitForApi(opened.page);
  else await waitForApp(opened.page);
  return opened;
}

// Waits until the wasm app has drawn at least `frames` frames. (Exports such as Module._llm_memory_frame_count
// exist before the wasm is instantiated and throw if called then: wait for llmMemory.ready first.)
export async function waitForApp(page, frames = 2) {
  await waitForApi(page);
  await page.waitForFunction((n) => window.llmMemory.frameCount() >= n, frames, { timeout: 30000, polling: POLL_MS });
}

// Fraction of canvas pixels that differ from the top-left pixel (0 = blank).
export async function canvasInk(page) {
  const png = await page.locator('#canvas').screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let differ = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 30) differ++;
    return differ / (d.length / 4);
  }, png.toString('base64'));
}

// The page's JS API once it is ready (window.llmMemory.ready resolved).
export async function waitForApi(page) {
  await page.waitForFunction(() => window.llmMemory && window.llmMemory.ready, null, { timeout: 30000, polling: POLL_MS });
  await page.evaluate(() => window.llmMemory.ready.then(() => true));
}

// Frames drawn so far (window.llmMemory.frameCount()).
export async function frameCount(page) {
  return page.evaluate(() => window.llmMemory.frameCount());
}

// Waits until the page has settled (window.llmMemory.idle(): its main loop paused itself and no address or
// storage write is pending), at most 10 s; returns the frames drawn so far. Exact, not a quiet spell: the
// loop pauses only when no frame is owed, and any input or change wakes it before the call that made it
// returns (so an idle() read after an input is about that input).
export async function waitForIdle(page) {
  await waitWithReport(page, () => window.llmMemory.idle(), 'the page never went idle');
  return frameCount(page);
}

// Waits, at most 10 s, until `predicate` (run in the page) is true; else throws `failure` with the page's
// idle report. The one wait the three waits below share.
async function waitWithReport(page, predicate, failure) {
  try {
    await page.waitForFunction(predicate, null, { timeout: 10000, polling: POLL_MS });
  } catch (err) {
    throw new Error(`${failure} (${await idleReport(page)}): ${err.message}`);
  }
}

// Waits until the page's main loop has paused itself, at most 10 s, whatever else is under way: no frame is
// owed, so the last frame drawn is the settled layout. A Hugging Face look-up held by the test keeps idle()
// false but draws nothing; a result that arrived scrolls its column in the frame after the one that drew it
// (hub_panel.cpp reveal), so a rect read before the loop pauses can be one frame stale.
export async function waitForLoopPaused(page) {
  await waitWithReport(page, () => Module._llm_memory_loop_paused() === 1, 'the page\'s loop never paused');
}

// Waits until the page has suspended its drawing (web/main_web.cpp llm_memory_set_visible(0): the canvas
// scrolled out of view or the tab hidden) and its loop is paused, at most 10 s; returns the frames drawn so
// far. After this no frame comes until the page is visible again: a suspended tick returns before drawing.
// The IntersectionObserver that reports an embed scrolled away runs after the page's next rendering update,
// which a busy browser serves hundreds of ms late (embed.test.mjs: 274 ms at load 18), so never wait a
// fixed time for it.
export async function waitForSuspended(page) {
  await waitWithReport(page, () => {
    const [paused, suspended] = Module.ccall('llm_memory_idle_report', 'string', [], []).split('\n');
    return paused === '1' && suspended === '1';
  }, 'the page never suspended its drawing');
  return frameCount(page);
}

// Why the page is not idle, for a timeout's message, read at once: idle() and its parts (the loop paused, a
// frame owed, a write, a file read or a Hub look-up under way), ImGui's active and nav-focused items, the
// page's focused element and visibility; then whether it still draws (frames over the next second) and the
// page's errors (an exception in the main loop's tick stops the loop unpaused).
export async function idleReport(page) {
  try {
    const now = await page.evaluate(() => {
      const el = document.activeElement;
      const focused = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') : 'none';
      const drawn = window.llmMemory.frameCount();
      const [paused, suspended, owed, queued, active, nav] = Module.ccall('llm_memory_idle_report', 'string', [], []).split('\n');
      const [writeDue, fileReads, hubBusy] = Module.llmMemoryIdleParts();
      return { drawn, text: `${drawn} frames drawn; idle()=${window.llmMemory.idle()} paused=${paused} suspended=${suspended} ` +
        `owed=${owed} queued=${queued} active=${active} nav=${nav} writeDue=${writeDue} fileReads=${fileReads} hubBusy=${hubBusy} ` +
        `focus=${focused} hasFocus=${document.hasFocus()} visibility=${document.visibilityState} url=${location.href}` };
    });
    await new Promise((r) => setTimeout(r, 1000));
    return `${now.text} frames in the next second=${(await frameCount(page)) - now.drawn} ` +
      `errors=${JSON.stringify(errorsOf.get(page) ?? 'not watched')}`;
  } catch (e) {
    return `no report: ${e.message}`;
  }
}

// True when every request went to `origin` (http) or was a data:/blob: URL.
export function foreignRequests(requests, origin) {
  return requests.filter((u) => !(u.startsWith(origin) || u.startsWith('data:') || u.startsWith('blob:')));
}

// Browser half of bench/run: loads the release page and the ImGui "hello" page in headless Chromium
// (SwiftShader WebGL2) and prints JSON: gzipped bytes of every file each page loads, time to first drawn
// frame (median of cold loads), frames and main-thread CPU over 5 s without input, CPU per frame while dragging.
// Usage: node bench/browser_bench.mjs APP_SITE_DIR HELLO_SITE_DIR [OUT.json]   (env BENCH_LOADS, BENCH_DRAG)
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { payloadRecorder, PAGE_GZIP_BUDGET_BYTES, SINGLE_FILE_GZIP_BUDGET_BYTES } from './payload.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [appDir, helloDir, outFile] = process.argv.slice(2);
const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const VIEWPORT = { width: 1280, height: 800 };
// Drag path in CSS pixels (x0,y0,x1,y1): along the parameter-count slider of the Calculator tab, so every
// frame changes the scenario (estimate, results, URL state). The report says whether the state changed.
const DRAG = (process.env.BENCH_DRAG ?? '24,190,444,190').split(',').map(Number);
const ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Runs before the page's scripts: wraps requestAnimationFrame (Emscripten's main loop runs in it) to time each
// callback with performance.now() and to note when the app's frame counter first passes 0.
const INIT = () => {
  const raf = window.requestAnimationFrame.bind(window);
  const bench = { firstFrameMs: null, recording: false, frameMs: [] };
  window.__bench = bench;
  // The export exists before the wasm is instantiated and throws until then: count 0 meanwhile.
  const count = () => {
    try {
      const hook = window.Module && window.Module['_llm_memory_frame_count'];
      return typeof hook === 'function' ? hook() : 0;
    } catch (e) {
      return 0;
    }
  };
  window.requestAnimationFrame = (callback) => raf((ts) => {
    const before = count();
    const t0 = performance.now();
    callback(ts);
    const t1 = performance.now();
    const after = count();
    if (after > before) {
      if (bench.firstFrameMs === null) bench.firstFrameMs = t1;
      if (bench.recording) bench.frameMs.push(t1 - t0);
    }
  });
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function open(browser, url, onResponse) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'dark' });
  await context.addInitScript(INIT);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (onResponse) page.on('response', onResponse);
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.__bench.firstFrameMs !== null, null, { timeout: 60000, polling: 50 });
  } catch (e) {
    const state = await page.evaluate(() => JSON.stringify(window.__bench)).catch(() => '?');
    await context.close();
    throw new Error(`${url}: no frame drawn within 60 s (bench state ${state}; page errors: ${errors.join('; ') || 'none'})`);
  }
  return { context, page, errors };
}

// Every file the page requested, with raw, gzip -9 and brotli sizes of the bytes served (bench/payload.mjs).
async function payload(browser, url) {
  const recorder = payloadRecorder();
  const { context, errors } = await open(browser, url, (res) => recorder.onResponse(res));
  await sleep(500);
  const files = await recorder.files();
  await context.close();
  return { files, errors };
}

async function firstFrame(browser, url) {
  const { context, page } = await open(browser, url);
  const ms = await page.evaluate(() => window.__bench.firstFrameMs);
  await context.close();
  return ms;
}

// Frames drawn and main-thread task time (CDP Performance.getMetrics) over 5 s without input.
async function idle(browser, url) {
  const { context, page } = await open(browser, url);
  await sleep(1500);  // let the app settle (the frame pacer owes a few frames after start)
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async (name) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name).value;
  const frames0 = await page.evaluate(() => window.Module['_llm_memory_frame_count']());
  const task0 = await metric('TaskDuration');
  const t0 = Date.now();
  await sleep(5000);
  const frames1 = await page.evaluate(() => window.Module['_llm_memory_frame_count']());
  const task1 = await metric('TaskDuration');
  const seconds = (Date.now() - t0) / 1000;
  await context.close();
  return { frames: frames1 - frames0, seconds, mainThreadCpuPercent: (100 * (task1 - task0)) / seconds };
}

// Cost of each frame while the mouse is dragged: main-thread wall time inside the rAF callbacks that drew a frame
// (performance.now() in the page) and thread CPU time of every rAF callback (Chrome trace, FireAnimationFrame).
async function drag(browser, url, shot) {
  const { context, page, errors } = await open(browser, url);
  await sleep(1000);
  const [x0, y0, x1, y1] = DRAG;
  const state = () => page.evaluate(() => (window['llmMemory'] ? window['llmMemory']['getState']() : null)).catch(() => null);
  const stateBefore = await state();
  await page.mouse.move(x0, y0);
  await sleep(100);
  await browser.startTracing(page, { categories: ['devtools.timeline'] });
  await page.evaluate(() => { window.__bench.recording = true; });
  await page.mouse.down();
  const steps = 120;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps);
    await sleep(16);
  }
  if (shot) await page.screenshot({ path: shot });
  await page.mouse.up();
  await sleep(200);
  const frameMs = await page.evaluate(() => { window.__bench.recording = false; return window.__bench.frameMs; });
  // Chrome's trace gives each requestAnimationFrame callback's thread CPU time (tdur), which excludes the time
  // the main thread was descheduled: on a shared machine that is the honest "CPU per frame".
  const trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const cpuMs = trace.filter((e) => e.name === 'FireAnimationFrame' && typeof e.tdur === 'number').map((e) => e.tdur / 1000);
  const stateAfter = await state();
  await context.close();
  return { frames: frameMs.length, medianMs: median(frameMs), worstMs: frameMs.length ? Math.max(...frameMs) : null,
    callbacks: cpuMs.length, cpuMedianMs: median(cpuMs), cpuWorstMs: cpuMs.length ? Math.max(...cpuMs) : null,
    stateBefore, stateAfter, errors };
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, headless: true });
const app = await startServer(appDir, 0);
const hello = await startServer(helloDir, 0);
try {
  const result = { loads: LOADS, viewport: VIEWPORT, drag: DRAG, chromium: browser.version(),
    budgets: { pageGzipBytes: PAGE_GZIP_BUDGET_BYTES, singleFileGzipBytes: SINGLE_FILE_GZIP_BUDGET_BYTES } };
  result.appPayload = await payload(browser, app.url);
  result.helloPayload = await payload(browser, hello.url);
  // Warm the browser process once (not counted), then alternate the two pages load by load.
  await firstFrame(browser, app.url);
  await firstFrame(browser, hello.url);
  const appMs = [];
  const helloMs = [];
  for (let i = 0; i < LOADS; i++) {
    if (i % 2 === 0) { appMs.push(await firstFrame(browser, app.url)); helloMs.push(await firstFrame(browser, hello.url)); }
    else { helloMs.push(await firstFrame(browser, hello.url)); appMs.push(await firstFrame(browser, app.url)); }
  }
  result.firstFrame = { appMs, helloMs, appMedianMs: median(appMs), helloMedianMs: median(helloMs) };
  result.firstFrame.ratio = result.firstFrame.appMedianMs / result.firstFrame.helloMedianMs;
  result.appIdle = await idle(browser, app.url);
  result.helloIdle = await idle(browser, hello.url);
  fs.mkdirSync(path.join(repoRoot, 'build/bench'), { recursive: true });
  result.appDrag = await drag(browser, app.url, path.join(repoRoot, 'build/bench/drag.png'));
  result.helloDrag = await drag(browser, hello.url, null);
  const text = JSON.stringify(result, null, 1);
  if (outFile) fs.writeFileSync(outFile, text + '\n');
  console.log(text);
} finally {
  await app.close();
  await hello.close();
  await browser.close();
}

// URL and storage writes are throttled (web/api.js): a slider drag changes the scenario every frame, and
// history.replaceState + localStorage.setItem were the largest JS cost of such a frame (bench/RESULTS.md,
// per-frame review item 5). A change after a quiet spell is written at once; further changes within 250 ms
// are written together at the end of the interval; pagehide and a hidden tab write what is pending.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveSite, waitForApi, waitForIdle } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Counts (and timestamps) every replaceState and localStorage write the page makes.
function countWrites() {
  window.__writes = { url: [], storage: [] };
  const replace = History.prototype.replaceState;
  History.prototype.replaceState = function (...args) {
    window.__writes.url.push(performance.now());
    return replace.apply(this, args);
  };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (...args) {
    window.__writes.storage.push(performance.now());
    return setItem.apply(this, args);
  };
}

async function openCounted(url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: 'dark' });
  await context.addInitScript(countWrites);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  await waitForApi(page);
  await waitForIdle(page);
  return { context, page, errors };
}

const STATES = Array.from({ length: 40 }, (_, i) => `params=${i + 1}B`);

test('40 scenario changes in a row are written once or twice, ending with the last one', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  const during = await page.evaluate((states) => {
    window.__writes.url.length = 0;
    window.__writes.storage.length = 0;
    for (const s of states) window.llmMemory.setState(s);
    return { url: window.__writes.url.length, storage: window.__writes.storage.length };
  }, STATES);
  // At most the leading write of the burst happens synchronously (the old page wrote 40 of each).
  assert.ok(during.url <= 1 && during.storage <= 1, JSON.stringify(during));
  await page.waitForFunction(() => location.hash === '#params=40B', null, { timeout: 5000 });
  await page.waitForFunction(() => localStorage.getItem('llm-memory:state') === 'params=40B', null, { timeout: 5000 });
  const total = await page.evaluate(() => ({ url: window.__writes.url.length, storage: window.__writes.storage.length }));
  assert.ok(total.url <= 2 && total.storage <= 2, JSON.stringify(total));
  assert.deepEqual(errors, []);
  await context.close();
});

test('pagehide writes a pending change at once', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  const seen = await page.evaluate(() => {
    window.llmMemory.setState('params=70B');   // written now (quiet spell) ...
    window.llmMemory.setState('params=8B');    // ... this one waits for the end of the interval
    const before = [location.hash, localStorage.getItem('llm-memory:state')];
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    return { before, after: [location.hash, localStorage.getItem('llm-memory:state')] };
  });
  assert.deepEqual(seen.before, ['#params=70B', 'params=70B']);
  assert.deepEqual(seen.after, ['#params=8B', 'params=8B']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('dragging the parameter slider writes the link at most once per 250 ms', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  // The N slider of the 1280x800 layout: row at y = 190, grab at x = 298 for 13B (web/tests screenshots).
  await page.evaluate(() => { window.__writes.url.length = 0; window.__writes.storage.length = 0; });
  await page.evaluate(() => {
    window.__summaries = 0;  // scenario changes published during the drag
    new MutationObserver(() => { window.__summaries++; })
      .observe(document.getElementById('results-summary'), { childList: true, characterData: true, subtree: true });
  });
  await page.mouse.move(298, 190);
  await page.waitForTimeout(100);
  await page.mouse.down();
  for (let x = 298; x <= 430; x += 4) {
    await page.mouse.move(x, 190);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await waitForIdle(page);
  const state = await page.evaluate(() => window.llmMemory.getState());
  assert.notEqual(state, 'params=13B', 'the drag did not move the slider');
  await page.waitForFunction((s) => location.hash === '#' + s && localStorage.getItem('llm-memory:state') === s, state, { timeout: 5000 });
  const w = await page.evaluate(() => ({ url: window.__writes.url, storage: window.__writes.storage, changes: window.__summaries }));
  const gaps = w.url.slice(1).map((t, i) => t - w.url[i]);
  console.log(`drag: ${w.changes} scenario changes, ${w.url.length} URL writes, ${w.storage.length} storage writes, ` +
    `smallest gap ${gaps.length ? Math.min(...gaps).toFixed(0) : '-'} ms`);
  assert.ok(w.changes > 1, `only ${w.changes} scenario changes during the drag`);
  // Timers never fire early, so no two writes are closer than the 250 ms interval; the timestamps are
  // taken at replaceState, a little after the interval starts, so 10 ms of slack (without the throttle
  // the writes came one per drag step, about 100 ms apart here).
  for (const gap of gaps) assert.ok(gap >= 240, `two URL writes ${gap.toFixed(1)} ms apart`);
  // Storage is written in the same batches, and only when the scenario differs from what it holds.
  assert.ok(w.storage.length <= w.url.length, JSON.stringify({ url: w.url.length, storage: w.storage.length }));
  assert.deepEqual(errors, []);
  await context.close();
});

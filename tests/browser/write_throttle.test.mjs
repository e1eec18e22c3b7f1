// URL and storage writes are throttled (web/api.js): a slider drag changes the scenario every frame, and
// history.replaceState + localStorage.setItem were the largest JS cost of such a frame (bench/RESULTS.md,
// per-frame review item 5). A change after a quiet spell is written at once; further changes within 250 ms
// are written together at the end of the interval; pagehide and a hidden tab write what is pending.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveSite, waitForApi, waitForIdle, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Counts (and timestamps) every replaceState and localStorage write the page makes. __holdClock(fn) runs fn
// with performance.now() standing still, so changes made in fn fall in one throttle interval however long
// a busy machine stalls the page between them (no frame runs inside a synchronous fn).
function countWrites() {
  const realNow = performance.now.bind(performance);
  let heldAt = null;
  performance.now = () => heldAt ?? realNow();
  window.__holdClock = (fn) => {
    heldAt = realNow();
    try { return fn(); } finally { heldAt = null; }
  };
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
    window.__holdClock(() => { for (const s of states) window.llmMemory.setState(s); });
    return { url: window.__writes.url.length, storage: window.__writes.storage.length };
  }, STATES);
  // At most the leading write of the burst happens synchronously (the old page wrote 40 of each).
  assert.ok(during.url <= 1 && during.storage <= 1, JSON.stringify(during));
  await page.waitForFunction(() => location.hash === '#params=40B', null, { timeout: 5000, polling: POLL_MS });
  await page.waitForFunction(() => localStorage.getItem('llm-memory:state') === 'params=40B', null, { timeout: 5000, polling: POLL_MS });
  const total = await page.evaluate(() => ({ url: window.__writes.url.length, storage: window.__writes.storage.length }));
  assert.ok(total.url <= 2 && total.storage <= 2, JSON.stringify(total));
  assert.deepEqual(errors, []);
  await context.close();
});

// Resolves once WRITE_INTERVAL_MS (250 ms) have passed since the page's last counted write: the next change
// is then one "after a quiet spell" (idle() says only that no write is pending).
const quietSpell = (page) => page.waitForFunction(() => {
  const last = Math.max(-1e9, ...window.__writes.url, ...window.__writes.storage);
  return performance.now() - last > 250;
}, null, { timeout: 5000, polling: POLL_MS });

test('pagehide writes a pending change at once', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  await quietSpell(page);
  const seen = await page.evaluate(() => {
    window.__holdClock(() => {
      window.llmMemory.setState('params=70B');   // written now (quiet spell) ...
      window.llmMemory.setState('params=8B');    // ... this one waits for the end of the interval
    });
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
  await waitForIdle(page);  // the grab is hovered
  await page.mouse.down();
  // A drag at the page's frame rate: each step waits for a frame drawn after its move (polled per animation
  // frame: a drawn frame is what is awaited, and the page is awake while dragged), so every step moves the
  // slider even when a busy browser draws late (a fixed 16 ms let several steps fall into one frame).
  for (let x = 298; x <= 430; x += 4) {
    const drawn = await page.evaluate(() => window.llmMemory.frameCount());
    await page.mouse.move(x, 190);
    await page.waitForFunction((n) => window.llmMemory.frameCount() > n, drawn, { timeout: 5000 });
  }
  await page.mouse.up();
  await waitForIdle(page);
  const state = await page.evaluate(() => window.llmMemory.getState());
  assert.notEqual(state, 'params=13B', 'the drag did not move the slider');
  await page.waitForFunction((s) => location.hash === '#' + s && localStorage.getItem('llm-memory:state') === s, state, { timeout: 5000, polling: POLL_MS });
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

// The address edited by hand while the page's own write is pending: the write must not put the page's
// previous state back over the edit. Here the pending write is made by pagehide before the edit's
// hashchange event has been dispatched (the same happens when the throttle's timer fires first).
test('a hash edit is kept when a pending write is made before its hashchange event', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  await quietSpell(page);
  const seen = await page.evaluate(() => {
    window.__holdClock(() => {
      window.llmMemory.setState('params=70B');   // written now (quiet spell) ...
      window.llmMemory.setState('params=8B');    // ... this one is pending
    });
    location.hash = '#params=9B';              // the user's edit; hashchange is dispatched later
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    return [location.hash, window.llmMemory.getState(), localStorage.getItem('llm-memory:state')];
  });
  // Before the fix the pending write replaced the edit with #params=8B and the hashchange was ignored.
  assert.deepEqual(seen, ['#params=9B', 'params=9B', 'params=9B']);
  await waitForIdle(page);
  assert.deepEqual(await page.evaluate(() => [location.hash, window.llmMemory.getState()]), ['#params=9B', 'params=9B']);
  assert.deepEqual(errors, []);
  await context.close();
});

// A hash edit changing the scenario and the exercise at once, made after a quiet spell: applying the
// scenario publishes it, and a quiet spell means it is written at once. That write must wait until the
// edit's practice= is applied too (before the fix it wrote the old exercise into the address, and the
// edit's practice= was then read from that rewritten address, so the new exercise never opened).
test('a hash edit after a quiet spell opens its exercise and applies its scenario together', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=7B&practice=predict-70b');
  await page.waitForFunction(() => window.llmMemory.getPractice() === 'predict-70b', null, { timeout: 10000, polling: POLL_MS });
  await page.waitForFunction(() => location.hash === '#params=7B&practice=predict-70b', null, { timeout: 5000, polling: POLL_MS });
  await quietSpell(page);  // so the edit's scenario is written at once
  await page.evaluate(() => { location.hash = '#params=8B&practice=seed-7b'; });
  await page.waitForFunction(() => window.llmMemory.getPractice() === 'seed-7b', null, { timeout: 10000, polling: POLL_MS });
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=8B');
  await page.waitForFunction(() => location.hash === '#params=8B&practice=seed-7b', null, { timeout: 5000, polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

// A reload loads the address the page had when the reload was asked for, so a change still waiting for
// its throttled write would reload the address before it; pagehide leaves the pending address to the
// reloaded page (sessionStorage), which shows it. A plain navigation to the old address opens that address.
test('a reload right after a change reopens that change; navigating to the old address opens it', async () => {
  const { context, page, errors } = await openCounted(server.url + '#params=13B');
  const pending = () => {
    window.__holdClock(() => {
      window.llmMemory.setState('params=70B');   // written now (quiet spell) ...
      window.llmMemory.setState('params=8B');    // ... this one waits for the end of the interval
    });
    return location.hash;
  };
  assert.equal(await page.evaluate(pending), '#params=70B');
  await page.reload();                          // the browser's reload button
  await waitForApi(page);
  assert.deepEqual(await page.evaluate(() => [window.llmMemory.getState(), location.hash]), ['params=8B', '#params=8B']);
  await waitForIdle(page);

  // A script's reload (location.reload(), as a page's own "Reload" link does) a moment after the change:
  // the throttle's timer may fire before the reload is asked for, or after it (a busy machine).
  assert.equal(await page.evaluate(pending), '#params=70B');
  await Promise.all([page.waitForEvent('load'), page.evaluate(() => location.reload())]);
  await waitForApi(page);
  assert.deepEqual(await page.evaluate(() => [window.llmMemory.getState(), location.hash]), ['params=8B', '#params=8B']);
  await waitForIdle(page);

  // A script's reload, with the throttle's timer due before pagehide: the timer writes the change after
  // the reload was asked for (the reload still loads #params=70B); the page it loads shows the change.
  await Promise.all([page.waitForEvent('load'), page.evaluate(() => {
    window.__holdClock(() => {
      window.llmMemory.setState('params=70B');
      window.llmMemory.setState('params=8B');
    });
    location.reload();
    const start = performance.now();
    while (performance.now() - start < 300) { /* the 250 ms timer becomes due before the page is left */ }
  })]);
  await waitForApi(page);
  assert.deepEqual(await page.evaluate(() => [window.llmMemory.getState(), location.hash]), ['params=8B', '#params=8B']);
  await waitForIdle(page);

  assert.equal(await page.evaluate(pending), '#params=70B');
  await page.goto('about:blank');
  await page.goto(server.url + '#params=70B');  // typed: the address asked for wins
  await waitForApi(page);
  assert.deepEqual(await page.evaluate(() => [window.llmMemory.getState(), location.hash]), ['params=70B', '#params=70B']);
  assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

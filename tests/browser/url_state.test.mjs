// URL state, the JS API and persistence: a link restores its scenario
// exactly, edits rewrite the fragment without new history entries, estimate() equals the CLI's JSON,
// #results-summary mirrors the figures, and the last scenario survives a reload (corrupt ones are ignored).
// Figures: the seed (13B at 2 bytes: 26 / 31.2 / 78 / 104 GB; 1B trainable: 6 GB, 32 GB).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, cliPath, foreignRequests, shotDir, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// The page writes its address 250 ms after the last change (web/api.js): wait for it, then compare.
async function waitForHash(page, expected) {
  try {
    await page.waitForFunction((h) => location.hash === h, expected, { timeout: 5000, polling: POLL_MS });
  } catch {
    assert.equal(await page.evaluate(() => location.hash), expected);  // names both values
  }
}

// The CLI's JSON for a state string (`llm-memory --state S --format json`).
function cliJson(state) {
  assert.ok(fs.existsSync(cliPath), `CLI not built: ${cliPath} (set LLM_MEMORY_CLI)`);
  const run = spawnSync(cliPath, ['--state', state, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// [link fragment, canonical state the page reports, expected weight and training text in the summary]
const SCENARIOS = [
  ['', 'params=13B', 'Weight memory 26 GB (24.21 GiB)', 'Training total 104 GB (96.86 GiB)'],                  // seed, 13B
  ['#params=13B&trainable=1B', 'params=13B&trainable=1B', 'Weight memory 26 GB', 'Training total 32 GB'], // seed, 1B trainable
  ['#params=70B&bytes=2&trainable=1B', 'params=70B&trainable=1B', 'Weight memory 140 GB', 'Training total 146 GB'],
  ['#params=7B&bytes=0.5&overhead=1.5', 'params=7B&bytes=0.5&overhead=1.5', 'Weight memory 3.5 GB', 'Inference total 5.25 GB'],
  ['#params=6.738415616B&trainable=7.7%25&k=2&state-bytes=4', 'params=6.738415616B&trainable=7.7%25&k=2&state-bytes=4',
   'Weight memory 13.48 GB', 'Gradient+optimizer memory 4.15 GB'],
];

test('a link restores its scenario exactly, and getState/estimate agree with the CLI', async () => {
  for (const [fragment, canonical, weight, other] of SCENARIOS) {
    const { page, errors, requests, context } = await openPage(browser, server.url + fragment);
    await waitForApi(page);
    const state = await page.evaluate(() => window.llmMemory.getState());
    assert.equal(state, canonical, `state of ${fragment}`);
    const summary = await page.locator('#results-summary').textContent();
    assert.ok(summary.includes(weight), `${fragment}: "${summary}" lacks "${weight}"`);
    assert.ok(summary.includes(other), `${fragment}: "${summary}" lacks "${other}"`);
    // The same figures as `llm-memory --state` for both the link and the canonical state.
    const fromPage = await page.evaluate((s) => window.llmMemory.estimate(s), state);
    assert.deepEqual(fromPage, cliJson(state));
    assert.deepEqual(await page.evaluate((s) => window.llmMemory.estimate(s), fragment), cliJson(fragment.replace(/^#/, '')));
    // The address bar shows the canonical state (the page rewrote it with replaceState, debounced).
    await waitForHash(page, canonical ? '#' + canonical : '');
    // A reload of that address gives the same scenario.
    await page.reload();
    await waitForApi(page);
    assert.equal(await page.evaluate(() => window.llmMemory.getState()), canonical);
    assert.deepEqual(foreignRequests(requests, server.url), []);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('estimate() equals the CLI JSON and reports bad input as {error}', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  for (const state of ['params=13B', 'params=175B&bytes=4&overhead=1.1', 'params=1T&trainable=0.5%25&k=4&state-bytes=4', 'params=350M&bytes=1']) {
    const json = await page.evaluate((s) => window.llmMemory.estimate(s), state);
    assert.deepEqual(json, cliJson(state), state);
  }
  // 175B at 4 bytes: 700 GB of weights (175e9 x 4).
  assert.equal((await page.evaluate(() => window.llmMemory.estimate('params=175B&bytes=4'))).weight_bytes, 700000000000);
  const bad = await page.evaluate(() => window.llmMemory.estimate('params=lots'));
  assert.match(bad.error, /^params: /);
  assert.deepEqual(errors, []);
  await context.close();
});

test('query string works, the fragment wins, unknown keys and bad values are reported, not fatal', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '?params=70B&bytes=4#bytes=1&color=red&k=minus');
  await waitForApi(page);
  // params from the query, bytes from the fragment (fragment wins), k rejected, color unknown.
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=70B&bytes=1');
  const notice = page.locator('#notice');
  assert.equal(await notice.isVisible(), true);
  const text = await page.locator('#notice-text').textContent();
  assert.match(text, /unknown setting "color"/);
  assert.match(text, /^Ignored in the link: .*k: /);
  // The scenario keys moved to the fragment, so a later edit cannot be overridden by the query.
  await waitForHash(page, '#params=70B&bytes=1');
  assert.equal(await page.evaluate(() => location.search), '');
  fs.mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: path.join(shotDir, 'web-notice.png') });
  await page.click('#notice-close');
  assert.equal(await notice.isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('setState replaces the scenario, rewrites the fragment without history entries, keeps state on errors', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=13B');
  await waitForApi(page);
  const historyLength = await page.evaluate(() => history.length);
  for (const state of ['params=70B', 'params=70B&bytes=1', 'params=8B&trainable=10%25']) {
    const result = await page.evaluate((s) => window.llmMemory.setState(s), state);
    assert.deepEqual(result, { ok: true, error: null });
    await waitForHash(page, '#' + state);
  }
  assert.equal(await page.evaluate(() => history.length), historyLength, 'replaceState, not pushState');
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 16 GB \(14\.9 GiB\)/);
  // Bad input: {ok:false, error naming the key}; the last good scenario stays.
  const bad = await page.evaluate(() => window.llmMemory.setState('params=8B&bytes=abc'));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /^bytes: /);
  const crossField = await page.evaluate(() => window.llmMemory.setState('params=1B&trainable=2B'));
  assert.equal(crossField.ok, false);
  assert.match(crossField.error, /trainable/);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=8B&trainable=10%25');
  // Editing the fragment by hand applies it.
  await page.evaluate(() => { location.hash = '#params=30B'; });
  await page.waitForFunction(() => window.llmMemory.getState() === 'params=30B', null, { polling: POLL_MS });
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 60 GB/);
  // A hand-edited link whose values only fail together keeps the scenario on screen (not the defaults).
  await page.evaluate(() => { location.hash = '#params=7B&trainable=8B'; });
  await page.waitForFunction(() => document.querySelector('#notice') && getComputedStyle(document.querySelector('#notice')).display !== 'none', null, { polling: POLL_MS });
  assert.match(await page.locator('#notice-text').textContent(), /trainable/);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=30B');
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 60 GB/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('#results-summary is a polite live region that follows the scenario', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const summary = page.locator('#results-summary');
  assert.equal(await summary.getAttribute('role'), 'status');
  assert.equal(await summary.getAttribute('aria-live'), 'polite');
  assert.equal(await summary.textContent(),
    'Weight memory 26 GB (24.21 GiB). Inference total 31.2 GB (29.06 GiB). Gradient+optimizer memory 78 GB (72.64 GiB). ' +
    'Training total 104 GB (96.86 GiB).');
  await page.evaluate(() => window.llmMemory.setState('params=13B&trainable=1B'));
  assert.match(await summary.textContent(), /Gradient\+optimizer memory 6 GB \(5\.59 GiB\)\. Training total 32 GB \(29\.8 GiB\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the last scenario is kept in localStorage; a corrupt stored value is ignored with a notice', async () => {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const errors = [];
  const first = await context.newPage();
  first.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await first.goto(server.url + '#params=70B');
  await waitForApi(first);
  await first.evaluate(() => window.llmMemory.setState('params=70B&trainable=1B'));
  await first.close();
  // A bare link: the stored scenario comes back.
  const second = await context.newPage();
  await second.goto(server.url);
  await waitForApi(second);
  assert.equal(await second.evaluate(() => window.llmMemory.getState()), 'params=70B&trainable=1B');
  assert.equal(await second.locator('#notice').isVisible(), false);
  // A link with settings wins over the stored scenario.
  await second.goto(server.url + '?x#params=7B');
  await waitForApi(second);
  assert.equal(await second.evaluate(() => window.llmMemory.getState()), 'params=7B');
  // Corrupt stored value: ignored, reported, removed; the defaults are shown. (Storage is written 250 ms
  // after the last change or when the page goes: wait for params=7B first, so closing writes nothing.)
  await second.waitForFunction(() => localStorage.getItem('llm-memory:state') === 'params=7B', null, { timeout: 5000, polling: POLL_MS });
  await second.evaluate(() => localStorage.setItem('llm-memory:state', 'params=%%%&bytes=-1'));
  await second.close();
  const third = await context.newPage();
  third.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await third.goto(server.url);
  await waitForApi(third);
  assert.equal(await third.evaluate(() => window.llmMemory.getState()), 'params=13B');
  assert.match(await third.locator('#notice-text').textContent(), /saved scenario could not be read and was ignored \(params: /);
  await third.waitForFunction(() => localStorage.getItem('llm-memory:state') === 'params=13B', null, { timeout: 5000, polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

test('page options (embed, theme) stay in the link and are not scenario settings', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=7B&theme=light', { width: 900, height: 600 });
  await waitForApi(page);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=7B');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');  // the colour scheme is dark
  assert.equal(await page.locator('#notice').isVisible(), false);
  await page.evaluate(() => window.llmMemory.setState('params=8B'));
  await waitForHash(page, '#params=8B&theme=light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the theme follows prefers-color-scheme, also when it changes while the page is open', async () => {
  const { page, errors, context } = await openPage(browser, server.url, { width: 900, height: 600 }, { colorScheme: 'light' });
  await waitForApi(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  const frames = await page.evaluate(() => window.llmMemory.frameCount());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000, polling: POLL_MS });
  assert.ok(await page.evaluate(() => window.llmMemory.frameCount()) > frames, 'the app was not redrawn in the new theme');
  assert.deepEqual(errors, []);
  await context.close();
});

// Offline and no-network guarantees: the single file works opened from
// disk with no request but its own, the CSP forbids other origins, and without WebGL 2 the page still
// shows the figures as HTML with a working JS API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, serveSite, openPage, waitForApi, waitForIdle, canvasInk, singleFile, shotDir, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

test('the single-file page works from file:// with no network', async () => {
  assert.ok(fs.existsSync(singleFile), `single file not built: ${singleFile}`);
  const url = pathToFileURL(singleFile).href + '#params=70B&bytes=2&trainable=1B';
  const { page, errors, requests, context } = await openPage(browser, url);
  await waitForApi(page);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=70B&trainable=1B');
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 140 GB \(130\.39 GiB\)\. .*Training total 146 GB/);
  assert.equal((await page.evaluate(() => window.llmMemory.estimate('params=13B'))).training_bytes, 104000000000);
  await waitForIdle(page);
  assert.ok(await canvasInk(page) > 0.01, 'blank canvas');
  await page.screenshot({ path: path.join(shotDir, 'single-file.png') });
  // Only the file itself (and data: URLs decoded in place).
  const other = requests.filter((u) => !u.startsWith('data:') && u.split('#')[0] !== pathToFileURL(singleFile).href);
  assert.deepEqual(other, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the CSP allows only the page\'s own files (and Hugging Face\'s hosts, for a look-up the user allows)', async () => {
  const { page, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /default-src 'none'/);
  // Hugging Face's hosts, used only after the user allows a look-up (README: why each one).
  assert.equal(csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src')),
    "connect-src 'self' data: https://huggingface.co https://*.cdn.hf.co https://cas-bridge.xethub.hf.co https://cdn-lfs.hf.co https://cdn-lfs-us-1.hf.co");
  // A request to another origin is refused by the browser (and reported as a violation).
  const blocked = await page.evaluate(() => new Promise((resolve) => {
    document.addEventListener('securitypolicyviolation', (e) => resolve(e.blockedURI), { once: true });
    fetch('http://203.0.113.9/probe').catch(() => {});
  }));
  assert.match(blocked, /^http:\/\/203\.0\.113\.9/);
  await context.close();
});

test('without WebGL 2 the page says so and still shows the figures as HTML', async () => {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  await context.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return String(type).startsWith('webgl') ? null : getContext.call(this, type, ...rest);
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '#params=13B&trainable=1B');
  await waitForApi(page);
  // Without WebGL 2 the text view is the page: the settings as a form, the results as a table.
  assert.equal(await page.locator('#text-view').isVisible(), true);
  assert.equal(await page.locator('#canvas').isVisible(), false);
  assert.match(await page.locator('#tv-no-webgl').textContent(), /needs WebGL 2/);
  const rows = () => page.locator('#tv-results tbody tr').allTextContents();
  assert.match((await rows()).join('\n'), /Weight memory26 GB24\.21 GiB/);
  assert.match((await rows()).join('\n'), /Training total32 GB29\.8 GiB/);
  assert.equal(await page.locator('#results-summary').count(), 1);
  // A field edits the scenario; the API still works.
  await page.getByRole('textbox', { name: 'Parameters (N)' }).fill('70B');
  await page.getByRole('textbox', { name: 'Parameters (N)' }).press('Enter');
  await page.waitForFunction(() => /Weight memory140 GB/.test(document.getElementById('tv-results').textContent), null, { polling: POLL_MS });
  await page.waitForFunction(() => location.hash === '#params=70B&trainable=1B', null, { timeout: 5000, polling: POLL_MS });  // written after 250 ms
  assert.deepEqual(await page.evaluate(() => window.llmMemory.setState('params=-1')), { ok: false, error: 'params: ' +
    (await page.evaluate(() => window.llmMemory.estimate('params=-1'))).error.replace(/^params: /, '') });
  await page.screenshot({ path: path.join(shotDir, 'web-no-webgl.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

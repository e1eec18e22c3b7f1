// Browser smoke test: the served page loads in headless Chromium with no console errors, draws a
// non-blank canvas, and its figures are the seed's (26, 31.2, 78, 104 GB for 13B at 2 bytes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApp, canvasInk, shotDir } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('page loads, draws, and shows the seed figures', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApp(page, 3);
  const summary = await page.locator('#results-summary').textContent();
  assert.match(summary, /Weight memory 26 GB \(24\.21 GiB\)/);
  assert.match(summary, /Inference total 31\.2 GB \(29\.06 GiB\)/);
  assert.match(summary, /Gradient\+optimizer memory 78 GB/);
  assert.match(summary, /Training total 104 GB \(96\.86 GiB\)/);
  const ink = await canvasInk(page);
  assert.ok(ink > 0.01, `canvas looks blank (${ink})`);
  fs.mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: path.join(shotDir, 'smoke-1280x800.png') });
  const json = await page.evaluate(() => JSON.parse(window.Module.ccall('llm_memory_estimate_json', 'string', ['string'], ['params=13B&trainable=1B'])));
  assert.equal(json.gradient_optimizer_bytes, 6000000000);
  assert.equal(json.training_bytes, 32000000000);
  assert.deepEqual(errors, []);
  await context.close();
});

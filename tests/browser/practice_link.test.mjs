// Practice links: the Practice tab shows "Link to this exercise: #practice=REF"; loading that address opens
// the exercise on the Practice tab (window.llmMemory.getPractice() reports it), the fragment keeps
// practice=REF while the tab is open and follows the panel, and drops it when another tab is chosen.
// Refs: core/practice.hpp find_exercise ("seed-7b", "predict-70b" or a number 1..4294967295).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, waitForIdle, shotDir, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const practiceIs = (page, ref) =>
  page.waitForFunction((r) => window.llmMemory.getPractice() === r, ref, { timeout: 10000, polling: POLL_MS });
// A click ImGui sees: hover first, and hold the button for a few frames (it reads buttons per frame): each
// step waits for the frames its input owes (the page's idle()), not a fixed time a busy browser may not draw in.
async function click(page, x, y) {
  await page.mouse.move(x, y);
  await waitForIdle(page);
  await page.mouse.down();
  await waitForIdle(page);
  await page.mouse.up();
}
// The address is written 250 ms after the last change (web/api.js).
const hashIs = (page, hash) => page.waitForFunction((h) => location.hash === h, hash, { timeout: 5000, polling: POLL_MS });

test('#practice=REF opens that exercise on the Practice tab and stays in the link', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#practice=42');
  await waitForApi(page);
  await practiceIs(page, '42');
  // The scenario is untouched (the seed's 13B), and the link keeps the exercise after the scenario.
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=13B');
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 26 GB/);
  await hashIs(page, '#params=13B&practice=42');
  assert.equal(await page.locator('#notice').isVisible(), false);
  await waitForIdle(page);
  fs.mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: path.join(shotDir, 'web-practice-link.png') });

  // The panel's "New exercise" (next number) is followed by the link. Its place: the Generated row of
  // the 1280x800 layout (web-practice-link.png).
  await click(page, 351, 190);
  await practiceIs(page, '43');
  await hashIs(page, '#params=13B&practice=43');
  // A reload of that address reopens exercise 43.
  await page.reload();
  await waitForApi(page);
  await practiceIs(page, '43');

  // Choosing the Calculator tab takes practice= out of the link; getPractice() says no exercise is shown.
  await waitForIdle(page);
  await click(page, 57, 62);
  await practiceIs(page, '');
  await hashIs(page, '#params=13B');
  assert.deepEqual(errors, []);
  await context.close();
});

test('practice= works with a scenario and in the query; a hash edit opens another exercise', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '?practice=predict-70b#params=7B&trainable=1B');
  await waitForApi(page);
  await practiceIs(page, 'predict-70b');
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=7B&trainable=1B');
  // 7B at 2 bytes: 14 GB of weights (the seed's 7B exercise).
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 14 GB/);
  // The query's practice= moves to the fragment, like the scenario keys.
  await hashIs(page, '#params=7B&trainable=1B&practice=predict-70b');
  assert.equal(await page.evaluate(() => location.search), '');
  await page.evaluate(() => { location.hash = '#params=7B&trainable=1B&practice=seed-7b'; });
  await practiceIs(page, 'seed-7b');
  await hashIs(page, '#params=7B&trainable=1B&practice=seed-7b');
  assert.equal(await page.locator('#notice').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an unknown practice reference is named in the notice; the calculator opens as usual', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=70B&practice=banana');
  await waitForApi(page);
  assert.match(await page.locator('#notice-text').textContent(),
    /^Ignored in the link: practice: "banana" is not an exercise \(seed-7b, predict-70b or a number such as 42\)\.$/);
  await waitForIdle(page);
  assert.equal(await page.evaluate(() => window.llmMemory.getPractice()), '');
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=70B');
  await hashIs(page, '#params=70B');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed ignores practice= (it has no tabs)', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=70B&practice=42&embed=1', { width: 700, height: 420 });
  await waitForApi(page);
  await waitForIdle(page);
  assert.equal(await page.evaluate(() => window.llmMemory.getPractice()), '');
  assert.equal(await page.locator('#notice').isVisible(), false);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=70B');
  assert.deepEqual(errors, []);
  await context.close();
});

// The What fits panel on the page (imgui_app/fit_panel.cpp): its answers are core's, the same as
// `llm-memory fit` for the same state (the text view carries them line by line), "Use this" makes an
// answer the scenario, and the panel is screenshotted at 1280x800 and on a 390x844 phone at DPR 3
// (build/screenshots/fit-panel-*.png) after scrolling it into view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApp, waitForIdle, cliPath, shotDir } from './harness.mjs';
import { openPhone, itemRect, swipe } from './touch_support.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

const STATE = 'model=llama-3.1-70b&dtype=q4_k_m&context=8K&gpu=rtx-4090';
const viewFit = (page) => page.evaluate(() => JSON.parse(Module.ccall('llm_memory_view_json', 'string', [], [])).fit);

test('the panel shows the answers llm-memory fit gives for the same state', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#' + STATE);
  await waitForApp(page, 3);
  const lines = await viewFit(page);
  const cli = JSON.parse(execFileSync(cliPath, ['fit', '--state', STATE, '--format', 'json'], { encoding: 'utf8' }));
  // Llama 3.1 70B at Q4_K_M (42.68 GB) never fits one 24 GiB card: no context answer, named; -ngl 42 of 81.
  assert.equal(lines[0], 'Largest context: no answer: ' + cli.context.error);
  assert.match(cli.context.error, /^even 1 token needs/);
  const ngl = lines.find((l) => l.startsWith('Layers on the GPU'));
  assert.equal(ngl, 'Layers on the GPU (llama.cpp -ngl): ' + cli.layers_on_gpu.sentence);
  assert.equal(cli.layers_on_gpu.offload.ngl, 42);
  assert.ok(lines.includes('Most bits that fit: ' + cli.bytes.inference.sentence));
  // Scroll the results column until the panel's heading is near the top, then look at it.
  const column = await itemRect(page, 'Inference vs training');
  for (let i = 0; i < 12; i++) {
    const heading = await itemRect(page, 'What fits');
    if (heading.y < 120) break;
    await page.mouse.move(column.cx, 500);
    await page.mouse.wheel(0, Math.min(400, heading.y - 100));
    await waitForIdle(page, 300);
  }
  const heading = await itemRect(page, 'What fits');
  assert.ok(heading.y >= 0 && heading.y < 400, `the panel's heading is in view (y ${heading.y})`);
  await page.screenshot({ path: path.join(shotDir, 'fit-panel-1280x800.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Use this" makes the answer the scenario: the largest context', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#model=llama-3.1-8b&gpu=rtx-4090&context=8K', { width: 1600, height: 1000 });
  await waitForApp(page, 3);
  const cli = JSON.parse(execFileSync(cliPath, ['fit', '--model', 'llama-3.1-8b', '--gpu', 'rtx-4090', '--context', '8K',
    '--maximize', 'context', '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(cli.context.value, 43920);
  const column = await itemRect(page, 'Inference vs training');
  for (let i = 0; i < 12; i++) {
    const button = await itemRect(page, 'Use this');
    if (button.y > 40 && button.y < 900) break;
    await page.mouse.move(column.cx, 500);
    await page.mouse.wheel(0, 300);
    await waitForIdle(page, 300);
  }
  const button = await itemRect(page, 'Use this');  // the first: the largest context
  await page.mouse.click(button.cx, button.cy);
  await page.waitForFunction(() => window.llmMemory.getState().includes('context=43920'), null, { timeout: 5000 });
  const state = await page.evaluate(() => window.llmMemory.getState());
  assert.match(state, /inference-mode=detailed/);
  assert.equal((await page.evaluate((s) => window.llmMemory.estimate(s), state)).detailed_inference_bytes, cli.context.need_bytes);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 390x844 phone the panel reads in one column', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url + '#' + STATE);
  for (let i = 0; i < 40; i++) {
    const heading = await itemRect(page, 'What fits');
    if (heading.y < 200) break;
    await swipe(cdp, 200, 700, 200, 200, 12);
    await waitForIdle(page, 300);
  }
  const heading = await itemRect(page, 'What fits');
  assert.ok(heading.y >= 0 && heading.y < 500, `the panel's heading is in view (y ${heading.y})`);
  await page.screenshot({ path: path.join(shotDir, 'fit-panel-390x844.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

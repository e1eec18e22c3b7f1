// The What fits panel on the page (imgui_app/fit_panel.cpp): its answers are core's, the same as
// `llm-memory fit` for the same state (the text view carries them line by line), "Use this" makes an
// answer the scenario, and the panel is screenshotted at 1280x800 and on a 390x844 phone at DPR 3
// (build/screenshots/fit-panel-*.png) after scrolling it into view.
// Figures named here come from the README's `llm-memory fit` examples (Llama 3.1 8B and 70B on an RTX 4090).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApp, waitForIdle, cliPath, shotDir, POLL_MS } from './harness.mjs';
import { openPhone, swipe } from './touch_support.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

const STATE = 'model=llama-3.1-70b&dtype=q4_k_m&context=8K&gpu=rtx-4090';
const STATE_8B = 'model=llama-3-8b&gpu=rtx-4090';  // every kind of answer: found, none, two sides, no answer
const viewFit = (page) => page.evaluate(() => JSON.parse(Module.ccall('llm_memory_view_json', 'string', [], [])).fit);
const cliFit = (state) => JSON.parse(execFileSync(cliPath, ['fit', '--state', state, '--format', 'json'], { encoding: 'utf8' }));

// The text view's lines as `llm-memory fit --format json` gives them: "<title>: <sentence>" per answer
// (training before inference), the sentence alone when it starts with its title ("Largest context that fits:
// ...", not "Largest context: Largest context that fits: ..."), "<title>: no answer: <error>" for a question
// without one.
const TITLES = { context: 'Largest context', batch: 'Largest batch', 'seq-len': 'Largest seq-len', 'micro-batch': 'Largest micro-batch',
  gpus: 'Fewest GPUs', bytes: 'Most bits that fit', layers_on_gpu: 'Layers on the GPU (llama.cpp -ngl)' };
function cliLines(cli) {
  const lines = [];
  const line = (key, sentence) => (sentence.startsWith(TITLES[key]) ? sentence : `${TITLES[key]}: ${sentence}`);
  for (const [key, report] of Object.entries(cli)) {
    if (key.startsWith('engine_')) continue;  // the CLI's leading engine_flags, engine_command, engine_verdict
    if (report.error) lines.push(`${TITLES[key]}: no answer: ${report.error}`);
    else if (report.side) lines.push(line(key, report.sentence));
    else for (const side of ['training', 'inference']) lines.push(line(key, report[side].sentence));
  }
  return lines;
}

// The first "Use this" button's rect in the last frame, or null while it is scrolled out of view (ImGui
// records only the items it draws; the panel's heading is a separator with no item id, so the panel is
// found by its buttons).
async function useThisRect(page) {
  const text = await page.evaluate(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['Use this']));
  if (!text) return null;
  const [x, y, w, h] = text.split(';')[0].split(',').map(Number);
  return { x, y, w, h, cx: x + w / 2, cy: y + h / 2 };
}

// Scrolls the column that holds the panel (`scroll(dy)`: the wheel or a swipe) until the first "Use this"
// is between 40 px and `targetY`: down in steps while it is out of view, then by the distance left.
async function scrollToUseThis(page, targetY, scroll) {
  await useThisRect(page);  // switches the item hooks on
  await waitForIdle(page);
  for (let i = 0; i < 40; i++) {
    const button = await useThisRect(page);
    if (button && button.y >= 40 && button.y <= targetY) return button;
    await scroll(button ? button.y - targetY + 20 : 700);
    await waitForIdle(page);
  }
  throw new Error('"Use this" never came into view');
}
const wheelAt = (page, x) => async (dy) => { await page.mouse.move(x, 400); await page.mouse.wheel(0, Math.max(-400, Math.min(400, dy))); };
// Few touch moves per swipe: each one draws a frame, and a DPR 3 frame is slow in software WebGL.
const swipeBy = (cdp) => async (dy) => {
  const d = Math.max(-700, Math.min(700, dy));
  await swipe(cdp, 200, d > 0 ? 780 : 80, 200, d > 0 ? 780 - d : 80 - d, 4);
};

test('the panel shows the answers llm-memory fit gives for the same state', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#' + STATE);
  await waitForApp(page, 3);
  const lines = await viewFit(page);
  const cli = cliFit(STATE);
  assert.deepEqual(lines, cliLines(cli));
  // Llama 3.1 70B at Q4_K_M (42.68 GB) never fits one 24 GiB card: no context answer, named (the README's
  // error line); -ngl 42 of 81 with 25,383,895,573 bytes on the card and 22,133,448,089 in system RAM (its JSON).
  assert.equal(lines[0], 'Largest context: no answer: even 1 token needs 43.76 GB per GPU, more than the 25.77 GB of each GPU (the weights alone are 42.68 GB)');
  const ngl = lines.find((l) => l.startsWith('Layers on the GPU'));
  assert.match(ngl, /^Layers on the GPU \(llama\.cpp -ngl\): -ngl 42 of 81 \(the output layer and the last 41 layers\): 25\.38 GB on the GPU of 25\.77 GB /);
  assert.equal(cli.layers_on_gpu.offload.ngl, 42);
  assert.equal(cli.layers_on_gpu.need_bytes, 25383895573);
  assert.equal(cli.layers_on_gpu.offload.ram_bytes, 22133448089);
  assert.ok(lines.includes('Most bits that fit: no answer: ' + cli.bytes.error));
  assert.match(cli.bytes.error, /^nothing fits\. Training: no named format fits; even Q2_K \(GGUF\) \(2\.625 bits\)/);
  assert.equal(cli.gpus.inference.value, 2);  // the only answer with a "Use this": 2 GPUs, split evenly
  // In the two-column layout the panel is in the right-hand column (from 36% of the width).
  const button = await scrollToUseThis(page, 640, wheelAt(page, 880));
  assert.ok(button.y + button.h <= 800, `"Use this" is on screen (y ${button.y})`);
  await page.screenshot({ path: path.join(shotDir, 'fit-panel-1280x800.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Use this" makes the answer the scenario: the largest context', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#model=llama-3.1-8b&gpu=rtx-4090&context=8K', { width: 1600, height: 1000 });
  await waitForApp(page, 3);
  const cli = JSON.parse(execFileSync(cliPath, ['fit', '--model', 'llama-3.1-8b', '--gpu', 'rtx-4090', '--context', '8K',
    '--maximize', 'context', '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(cli.context.value, 43920);  // the README's example: 43,920 tokens
  // Three columns at 1600 px: the panel is in the right-hand one (from 62% of the width).
  const button = await scrollToUseThis(page, 900, wheelAt(page, 1300));  // the first: the largest context
  await page.mouse.click(button.cx, button.cy);
  await page.waitForFunction(() => window.llmMemory.getState().includes('context=43920'), null, { timeout: 5000, polling: POLL_MS });
  const state = await page.evaluate(() => window.llmMemory.getState());
  assert.match(state, /inference-mode=detailed/);
  assert.equal((await page.evaluate((s) => window.llmMemory.estimate(s), state)).detailed_inference_bytes, cli.context.need_bytes);
  assert.deepEqual(errors, []);
  await context.close();
});

test('llama-3-8b on an RTX 4090: every line of the panel is the CLI\'s (1280x800)', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#' + STATE_8B);
  await waitForApp(page, 3);
  const cli = cliFit(STATE_8B);
  assert.deepEqual(await viewFit(page), cliLines(cli));
  // The README's figure for Llama 3 8B's context on a 24 GiB card; -ngl 33 of 33 offloads everything.
  assert.equal(cli.context.value, 43920);
  assert.equal(cli.layers_on_gpu.value, 33);
  assert.equal(cli.gpus.inference.value, 1);
  assert.equal(cli.bytes.inference.format, 'fp16');
  // The first "Use this" is the largest context's, the panel's first answer: at 250 px the heading is above it.
  const button = await scrollToUseThis(page, 250, wheelAt(page, 880));
  assert.ok(button.x > 460, `the panel is in the right-hand column (x ${button.x})`);
  await page.screenshot({ path: path.join(shotDir, 'fit-panel-8b-1280x800.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

// Under an engine (the full build, which a link with engine= opens) the inference answers are the engine's
// (core/engines/engine_fit.cpp): the README's example, llama.cpp at most -c 75776 -ngl 33 for Llama 3.1 8B
// on an RTX 4090 where its own --fit keeps -c 67840; vLLM's --max-model-len up to its own estimate.
test('under an engine the panel gives the engine\'s answers, the same as llm-memory fit', async () => {
  for (const [state, first] of [
    ['model=llama-3.1-8b&gpu=rtx-4090&engine=llama.cpp', 'Largest context: llama.cpp runs at most 75,776 tokens (-c 75776 -ngl 33) on 1 x NVIDIA GeForce RTX 4090: '],
    ['model=llama-3.1-8b&gpu=rtx-4090&engine=vllm', 'Largest context: vLLM starts with --max-model-len up to '],
  ]) {
    const { page, errors, context } = await openPage(browser, server.url + '#' + state);
    await waitForApp(page, 3);
    assert.equal(await page.evaluate(() => Module._llm_memory_engines_in_build()), 1);
    const lines = await viewFit(page);
    const cli = cliFit(state);
    assert.deepEqual(lines, cliLines(cli));
    assert.ok(lines[0].startsWith(first), lines[0]);
    assert.ok(!lines.some((l) => l.startsWith('Largest batch')), 'no batch question under llama.cpp or vLLM');
    if (state.includes('vllm')) {
      assert.equal(cli.context.value, cli.context.estimate.engine.context_tokens);
      assert.ok(!lines.some((l) => l.startsWith('Layers on the GPU')), 'no -ngl question under vLLM');
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a 390x844 phone the panel reads in one column', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url + '#' + STATE_8B);
  assert.deepEqual(await viewFit(page), cliLines(cliFit(STATE_8B)));
  await scrollToUseThis(page, 450, swipeBy(cdp));
  await waitForIdle(page);  // a DPR 3 frame takes a few hundred ms in software WebGL: let the last ones land
  const button = await useThisRect(page);
  // One column: the button starts near the left edge and fits the screen's width.
  assert.ok(button && button.y >= 40 && button.y <= 800, `"Use this" is on screen (y ${button?.y})`);
  assert.ok(button.x < 60 && button.x + button.w <= 390, `"Use this" fits the width (x ${button.x}, w ${button.w})`);
  await page.screenshot({ path: path.join(shotDir, 'fit-panel-390x844.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

// Screen readers, keyboards, find-in-page: the text view (web/api.js, "the text view") is generated from
// core's settings table, report and steps. Every setting is reachable by role and name and changes the
// result; the results table reads the same bytes as estimate(); a rejected value is marked invalid with
// its message; canvas changes reach the view without overwriting a field being typed in; the keyboard alone
// gets everywhere (skip link first); axe-core finds no serious or critical violation (full page, embed,
// Practice tab, text view: axe.test.mjs). Snapshots are written to build/screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openReady, waitForApi, shotDir, POLL_MS } from './harness.mjs';

let browser;
let server;
const open = (url, viewport, options) => openReady(browser, url, viewport, options);
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

const state = (page) => page.evaluate(() => window.llmMemory.getState());
const resultsText = (page) => page.locator('#tv-results tbody').textContent();
const gpuText = async (page) => (await page.locator('#tv-gpu').textContent()) + (await page.locator('#tv-verdicts').textContent());
const fitText = (page) => page.locator('#tv-fit').textContent();

// An edit through the view's control for `key` (its role and accessible name come from the settings table).
async function edit(page, row, value) {
  if (row.kind === 'choice') await page.getByRole('combobox', { name: row.label, exact: false }).selectOption(value);
  else if (row.kind === 'bool') await page.getByRole('checkbox', { name: row.label }).setChecked(value === 'true');
  else {
    const box = page.getByRole('textbox', { name: row.label });
    await box.fill(value);
    await box.press('Enter');
  }
}

// One value per setting that changes the results or the GPU verdict, applied in this order (later keys
// need earlier ones: LoRA and the KV cache need a model, ZeRO needs GPUs).
const EDITS = [
  ['params', '70B'], ['bytes', '1'], ['overhead', '1.5'], ['trainable', '10%'], ['k', '4'], ['state-bytes', '4'],
  ['dtype', 'int4'], ['recipe', 'adamw-mixed'], ['model', 'llama-2-7b'], ['lora-rank', '8'], ['lora-targets', 'all-linear'],
  ['dtype', ''], ['qlora', 'true'], ['upcast-nonquantized', 'false'], ['adapter-dtype', 'bf16'], ['context', '4096'], ['batch', '2'], ['kv-dtype', 'fp8'], ['inference-mode', 'detailed'],
  ['gpu', 'rtx-4090'], ['gpus', '2'], ['zero', '3'], ['gpu-memory', '80GB'],
  // Training as it runs (the model is llama-2-7b: 32 heads, 32 layers; tp x pp must divide the GPUs).
  ['training-mode', 'detailed'], ['seq-len', '4096'], ['micro-batch', '2'], ['recompute', 'full'], ['attention', 'eager'],
  ['loss', 'chunked'], ['framework-overhead', '1GiB'], ['allocator-margin', '20%'],
  // DeepSpeed's gradient bucket: overlap_comm doubles it at ZeRO 1-2 only.
  ['zero', '2'], ['zero-bucket', '200000000'], ['overlap-comm', 'true'], ['zero', '3'],
  ['fsdp-prefetch', '2'], ['tp', '2'], ['sp', 'true'],
  // The optimizer step: fused AdamW has no temporary; gradient accumulation keeps the gradients in the backward pass.
  ['optimizer-impl', 'fused'], ['grad-accum', '4'],
  ['gpus', '4'], ['pp', '2'], ['tensor-split', '1,1,1,2'],
  // What fits: which end of the training peak's band the training answers keep within the GPU.
  ['confidence', 'typical'],
  // A model with a vision tower, and the image size first ('#state' sets a state without checking a change).
  ['#state', 'model=qwen2.5-vl-3b&image-size=1024x768'],
  ['text-only', 'true'], ['text-only', ''], ['images', '2'], ['image-size', '1920x1080'],
  // A model with an audio tower: a 45 s clip's 751 tokens give it a KV cache.
  ['#state', 'model=voxtral-mini-3b'], ['audio-seconds', '45'],
];

test('every setting is in the text view by role and name, and each one changes the result', async () => {
  const { page, errors, context } = await open(server.url + '#view=text', { width: 1280, height: 900 });
  await page.locator('#text-view').waitFor();
  const rows = JSON.parse(await page.evaluate(() => Module.ccall('llm_memory_view_json', 'string', [], []))).settings;
  const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.ok(rows.length >= 20, `${rows.length} settings`);
  for (const row of rows) {
    const role = row.kind === 'choice' ? 'combobox' : row.kind === 'bool' ? 'checkbox' : 'textbox';
    assert.equal(await page.getByRole(role, { name: row.label }).count(), 1, `${row.key}: one ${role} named "${row.label}"`);
    assert.ok(row.help.length > 10 && row.label !== row.key, `${row.key} has a label and a help line`);
    // The help line is the control's description.
    const described = await page.getByRole(role, { name: row.label }).getAttribute('aria-describedby');
    assert.equal(await page.locator('#' + described.split(' ')[0]).textContent(), row.help);
  }
  // A setting added to core's table shows up here by itself; it needs an edit above to prove it works.
  const edited = new Set(EDITS.map(([key]) => key));
  edited.delete('#state');
  assert.deepEqual(rows.map((r) => r.key).filter((key) => !edited.has(key)), [], 'settings without an edit in EDITS');
  for (const [key, value] of EDITS) {
    if (key === '#state') {
      await page.evaluate((v) => window.llmMemory.setState(v), value);
      await page.waitForFunction((v) => {
        const pairs = window.llmMemory.getState().split('&').map(decodeURIComponent);
        return v.split('&').every((p) => pairs.includes(p));
      }, value, { timeout: 5000, polling: POLL_MS });
      continue;
    }
    const before = (await resultsText(page)) + (await gpuText(page)) + (await fitText(page));
    await edit(page, byKey[key], value);
    await page.waitForFunction(([k, v]) => {
      const pairs = window.llmMemory.getState().split('&');
      return v === '' ? !pairs.some((p) => p.startsWith(k + '=')) : pairs.map(decodeURIComponent).includes(k + '=' + v);
    }, [key, value], { timeout: 5000, polling: POLL_MS }).catch(async () => {
      throw new Error(`${key}=${value} not applied: state ${await state(page)}, message "${await page.locator('#set-' + key + '-err').textContent()}"`);
    });
    const after = (await resultsText(page)) + (await gpuText(page)) + (await fitText(page));
    assert.notEqual(after, before, `${key}=${value} changed the results, the GPU verdict or what fits`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the results table reads the same bytes as estimate(), in GB and GiB from core', async () => {
  const { page, errors, context } = await open(server.url + '#params=13B&trainable=1B&view=text', { width: 1280, height: 900 });
  await page.locator('#tv-results tbody tr').first().waitFor();
  const json = await page.evaluate(() => window.llmMemory.estimate(window.llmMemory.getState()));
  const rows = await page.locator('#tv-results tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    label: tr.cells[0].textContent, bytes: Number(tr.dataset.bytes), gb: tr.cells[1].textContent, gib: tr.cells[2].textContent })));
  const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
  // The seed's figures: 13B at 2 bytes = 26 GB of weights, x1.2 = 31.2 GB, 1B trainable x 3 x 2 = 6 GB, 32 GB.
  assert.equal(byLabel['Weight memory'].bytes, json.weight_bytes);
  assert.equal(byLabel['Weight memory'].gb, '26 GB');
  assert.equal(byLabel['Weight memory'].gib, '24.21 GiB');
  assert.equal(byLabel['Inference total'].bytes, json.inference_bytes);
  assert.equal(byLabel['Inference total'].gb, '31.2 GB');
  assert.equal(byLabel['Training total'].bytes, json.training_bytes);
  assert.equal(byLabel['Training total'].gb, '32 GB');
  const grad = rows.find((r) => r.label.startsWith('Gradient'));
  assert.equal(grad.bytes, json.gradient_optimizer_bytes);
  assert.equal(grad.gb, '6 GB');
  // Above the table, the report's input line, as `llm-memory --params 13B --trainable 1B` prints it.
  assert.equal(await page.locator('#tv-inputs').textContent(), 'N = 13B parameters, b = 2 bytes, overhead 1.2, trainable 1B, k = 3 x 2 bytes');
  // The summary (core's report_summary) agrees with every row.
  const summary = await page.locator('#results-summary').textContent();
  for (const r of rows) assert.ok(summary.includes(`${r.gb} (${r.gib})`), `${r.label} ${r.gb} in "${summary}"`);
  // Find-in-page and translation see the labels and figures; machine keys are marked translate=no.
  const text = await page.evaluate(() => document.body.innerText);
  for (const label of ['Parameters (N)', 'Bytes per parameter (b)', 'Weight memory', 'Worked steps', 'Practice']) assert.ok(text.includes(label), label);
  assert.equal(await page.locator('#set-params').getAttribute('translate'), 'no');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a rejected value is marked invalid with its message; canvas changes reach the view but not a field being typed in', async () => {
  const { page, errors, context } = await open(server.url + '#view=text', { width: 1280, height: 900 });
  const params = page.getByRole('textbox', { name: 'Parameters (N)' });
  await params.fill('abc');
  await params.press('Enter');
  await page.waitForFunction(() => document.getElementById('set-params').getAttribute('aria-invalid') === 'true', null, { polling: POLL_MS });
  const described = (await params.getAttribute('aria-describedby')).split(' ');
  const message = await page.locator('#' + described[1]).textContent();
  assert.match(message, /^params: /);
  assert.equal(message, (await page.evaluate(() => window.llmMemory.estimate('params=abc'))).error);
  assert.equal(await state(page), 'params=13B');  // the last good scenario stays
  // The canvas (here the JS API, the same publish path) changes the scenario: the view follows...
  await page.evaluate(() => window.llmMemory.setState('params=70B'));
  await page.waitForFunction(() => document.getElementById('set-params').value === '70B', null, { polling: POLL_MS });
  assert.equal(await params.getAttribute('aria-invalid'), 'false');
  assert.match(await resultsText(page), /Weight memory140 GB/);
  // ...except the field the user is typing in.
  const k = page.getByRole('textbox', { name: 'Values per trainable parameter (k)' });
  await k.fill('5');
  await page.evaluate(() => window.llmMemory.setState('params=30B'));
  await page.waitForFunction(() => document.getElementById('set-params').value === '30B', null, { polling: POLL_MS });
  assert.equal(await k.inputValue(), '5');
  await k.press('Enter');
  await page.waitForFunction(() => window.llmMemory.getState() === 'params=30B&k=5', null, { polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

// A weight format decides b (the canvas greys its b field and shows the format): the view's b field shows
// the same figure read-only, its description says why, and it is b's own again once the format is cleared.
test('a weight format makes the b field read-only with the format\'s figure and why, as on the canvas', async () => {
  const { page, errors, context } = await open(server.url + '#view=text&model=llama-2-7b&dtype=gptq', { width: 1280, height: 900 });
  const b = page.getByRole('textbox', { name: 'Bytes per parameter (b)' });
  await page.waitForFunction(() => document.getElementById('set-bytes').readOnly, null, { polling: POLL_MS });
  assert.equal(await b.inputValue(), 'GPTQ 4-bit (g128) = 4.15625 bits');
  assert.equal(await b.isEditable(), false);
  const help = page.locator('#set-bytes-help');
  assert.match(await help.textContent(), /^The weight format decides: the decoder's linear weights in GPTQ 4-bit \(g128\).*b is not used\.$/);
  await page.getByRole('combobox', { name: 'Weight format', exact: false }).selectOption('');
  await page.waitForFunction(() => !document.getElementById('set-bytes').readOnly, null, { polling: POLL_MS });
  assert.equal(await b.inputValue(), '2');
  assert.equal(await help.textContent(), 'bytes per parameter b: 4 fp32, 2 fp16/bf16, 1 int8, 0.5 int4 (default 2)');  // the row's help again
  await b.fill('1');
  await b.press('Enter');
  await page.waitForFunction(() => window.llmMemory.getState().split('&').includes('bytes=1'), null, { polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the keyboard alone: the skip link is the first stop, then every field, the practice answer', async () => {
  const { page, errors, context } = await open(server.url + '#params=7B', { width: 1280, height: 900 });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'skip-link');
  const box = await page.locator('#skip-link').boundingBox();  // visible while focused
  assert.ok(box.y >= 0 && box.width > 1 && box.height > 1, JSON.stringify(box));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement.id === 'text-view', null, { polling: POLL_MS });
  // Remembered in the link (the page's writes are throttled to one per 250 ms, so wait for that write).
  await page.waitForFunction(() => /(^#|&)view=text(&|$)/.test(location.hash), null, { timeout: 5000, polling: POLL_MS });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'set-model');
  await page.keyboard.press('Tab');  // text-only sits with the model: it changes the model's count
  assert.equal(await page.evaluate(() => document.activeElement.id), 'set-text-only');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'set-params');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('70B');
  await page.keyboard.press('Tab');  // leaving the field commits it
  await page.waitForFunction(() => window.llmMemory.getState() === 'params=70B', null, { polling: POLL_MS });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'set-bytes');
  // Every control is reachable by Tab, in order, up to the practice answer and its Check button.
  const order = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement.id);
    order.push(id);
    if (id === 'tv-answer') break;
  }
  assert.equal(order.at(-1), 'tv-answer', order.join(' '));
  assert.ok(order.includes('set-gpu-memory') && order.includes('set-qlora'), order.join(' '));
  await page.keyboard.type('14 GB');  // the seed's 7B exercise, question 1: 7B x 2 bytes = 14 GB
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /14 GB/.test(document.getElementById('tv-feedback').textContent), null, { polling: POLL_MS });
  assert.match(await page.locator('#tv-feedback').textContent(), /^Right/);
  // The Text view button closes and reopens it.
  await page.locator('#text-view-toggle').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#text-view').isVisible(), false);
  assert.equal(await page.locator('#text-view-toggle').getAttribute('aria-expanded'), 'false');
  await page.waitForFunction(() => !/view=text/.test(location.hash), null, { polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the text view on a phone: screenshot and accessibility snapshot', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(server.url + '#params=13B&trainable=1B&gpu=rtx-4090&view=text');
  await waitForApi(page);
  await page.locator('#tv-results tbody tr').first().waitFor();
  assert.equal(await page.locator('#canvas').isVisible(), false);  // the view takes the canvas's place
  const snapshot = await page.locator('#text-view').ariaSnapshot();
  fs.writeFileSync(path.join(shotDir, 'text-view-aria.yml'), snapshot + '\n');
  assert.match(snapshot, /heading "The estimator as text" \[level=2\]/);
  assert.match(snapshot, /textbox "Parameters \(N\) \(parameters\)"/);
  assert.match(snapshot, /combobox "GPU"/);
  assert.match(snapshot, /row "Weight memory 26 GB 24\.21 GiB"/);
  await page.screenshot({ path: path.join(shotDir, 'phone-text-view.png') });
  await page.locator('#tv-results').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shotDir, 'phone-text-view-results.png') });
  await context.close();
});

// Training on the page (lean build), against the CLI: each class's peak, band bytes and band sentence, the
// three-way GPU verdict, and the second pass's terms, in the JS API and the text view. The band is the
// reality table's (tests/fixtures/reality.json; tests/cli/reality_test.py checks it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { launch, serveSite, openPage, waitForApi, waitForIdle, cliPath, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cli = (state, json) => execFileSync(cliPath, ['--state', state, ...(json ? ['--format', 'json'] : [])], { encoding: 'utf8' });
const line = (text, start, has = '') => text.split('\n').map((l) => l.trim()).find((l) => l.startsWith(start) && l.includes(has));
const flat = (text) => text.replace(/\s+/g, ' ');

// One run of each class, and the verdict each gets on its card (QLoRA with gradient checkpointing, as PEFT's
// prepare_model_for_kbit_training turns it on: without it PEFT's upcast keeps 13.6 GB of fp32 activations and
// the band's high end is over the card).
const RUNS = [
  ['QLoRA', 'model=llama-2-7b&lora-rank=16&qlora&training-mode=detailed&recompute=full&gpu=rtx-4090', 'fits, '],
  ['LoRA', 'model=llama-2-7b&lora-rank=16&training-mode=detailed&seq-len=4096&gpu-memory=36GB', 'fits unless the run lands at the high end'],
  ['full', 'model=llama-2-7b&training-mode=detailed&gpu=rtx-4090', 'does not fit'],
  ['sharded', 'model=llama-2-7b&training-mode=detailed&gpus=8&zero=3&gpu=a100-80gb', 'fits, '],
];

test('each class of training run shows the CLI\'s band and three-way verdict in the API and the text view', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#view=text', { width: 1280, height: 900 });
  await waitForApi(page);
  await page.locator('#text-view').waitFor();
  for (const [klass, state, verdict] of RUNS) {
    const want = JSON.parse(cli(state, true));
    assert.equal(want.training_peak_class, klass, state);
    const got = await page.evaluate((s) => window.llmMemory.estimate(s), state);
    for (const key of ['training_peak_bytes', 'training_peak_low_bytes', 'training_peak_high_bytes', 'training_peak_class'])
      assert.equal(got[key], want[key], `${state}: ${key}`);
    assert.ok(want.training_peak_low_bytes <= want.training_peak_bytes && want.training_peak_bytes <= want.training_peak_high_bytes);
    const text = cli(state, false);
    const band = line(text, 'Likely ');
    const gpu = line(text, 'Training peak per GPU ', '(likely ') ?? '';  // the verdict line, not the table's row
    assert.match(band, new RegExp(`where published ${klass} runs in the reality table measured against our figure`));
    assert.ok(gpu.includes(verdict), `${state}: "${gpu}" should say "${verdict}"`);
    await page.evaluate((s) => window.llmMemory.setState(s), state);
    await page.waitForFunction((b) => document.querySelector('#text-view').textContent.replace(/\s+/g, ' ').includes(b), flat(band), { polling: POLL_MS });
    const shown = flat(await page.locator('#text-view').textContent());
    assert.ok(shown.includes(flat(gpu)), `the text view lacks "${gpu}"`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// The second pass's settings together (PEFT's upcast off, op-level recompute with eager attention, ZeRO-3 with
// two layers prefetched, DeepSpeed's bucket with overlap_comm): the page's peak and every peak term are the
// CLI's, and the text view's results table lists each term with the CLI's bytes.
const SECOND_PASS = 'model=llama-3-8b&lora-rank=16&qlora&upcast-nonquantized=false&training-mode=detailed&recompute=op-selective' +
  '&attention=eager&gpus=2&zero=3&fsdp-prefetch=2&zero-bucket=5e8&overlap-comm=true&gpu=rtx-4090';

test('the second pass\'s terms and settings give the CLI\'s figures in the API and the text view', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#view=text', { width: 1280, height: 900 });
  await waitForApi(page);
  await page.locator('#text-view').waitFor();
  const want = JSON.parse(cli(SECOND_PASS, true));
  const keys = want.training_peak_terms.map((t) => t.key);
  for (const key of ['zero3_gathered', 'zero_bucket', 'dequant_workspace']) assert.ok(keys.includes(key), key);
  assert.equal(want.training.recompute, 'op-selective');
  const got = await page.evaluate((s) => window.llmMemory.estimate(s), SECOND_PASS);
  assert.deepEqual(got.training_peak_terms, want.training_peak_terms);
  assert.equal(got.training_peak_bytes, want.training_peak_bytes);
  await page.evaluate((s) => window.llmMemory.setState(s), SECOND_PASS);
  await page.waitForFunction((b) => [...document.querySelectorAll('#tv-results tr')].some((tr) => tr.dataset.bytes === String(b)),
    want.training_peak_bytes, { polling: POLL_MS });
  const rows = await page.locator('#tv-results tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.dataset.bytes]));
  for (const term of want.training_peak_terms.filter((t) => ['zero3_gathered', 'zero_bucket', 'dequant_workspace'].includes(t.key)))
    assert.ok(rows.some(([label, bytes]) => label === term.label && bytes === String(term.bytes)), `${term.label} ${term.bytes} in ${JSON.stringify(rows)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

// A config.json handed to the page (web/model_exports.cpp llm_memory_load_config, what the drop handler
// calls) is applied on the next frame whether or not the Model section is open, and even while another
// tab is shown: the figures and the link change at once (/work/notes/web-needs.md, 15:25 observation).
// Figures: Llama-2-7B's config (tests/fixtures/configs/llama-2-7b.json) counts 6,738,415,616 parameters
// (the model card's "7B"); at 2 bytes that is 13,476,831,232 bytes = 13.48 GB of weights, x 1.2 = 16.17 GB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, waitForIdle, repoRoot, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const LLAMA_2_7B = fs.readFileSync(path.join(repoRoot, 'tests/fixtures/configs/llama-2-7b.json'), 'utf8');
const loadConfig = (page, text) =>
  page.evaluate((t) => window.Module.ccall('llm_memory_load_config', 'number', ['string'], [t]), text);
const summaryStarts = (page, prefix) => page.waitForFunction(
  (p) => document.getElementById('results-summary').textContent.startsWith(p), prefix, { timeout: 5000, polling: POLL_MS });

for (const [where, fragment] of [['the Model section collapsed (Calculator tab)', '#params=13B'],
  ['the Practice tab open', '#params=13B&practice=42']]) {
  test(`a loaded config.json changes the figures at once, with ${where}`, async () => {
    const { page, errors, context } = await openPage(browser, server.url + fragment);
    await waitForApi(page);
    await waitForIdle(page);
    assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 26 GB/);
    const framesBefore = await page.evaluate(() => window.llmMemory.frameCount());
    assert.equal(await loadConfig(page, LLAMA_2_7B), 1);
    await summaryStarts(page, 'Weight memory 13.48 GB (12.55 GiB). Inference total 16.17 GB (15.06 GiB).');
    assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=6.738415616B');
    assert.equal((await page.evaluate(() => window.llmMemory.estimate('params=6.738415616B'))).weight_bytes, 13476831232);
    // No frames owed beyond the few after the wake-up: the model was applied in them, then the page idles.
    await waitForIdle(page);
    assert.ok(await page.evaluate(() => window.llmMemory.frameCount()) > framesBefore);
    await page.waitForFunction(() => location.hash.startsWith('#params=6.738415616B'), null, { timeout: 5000, polling: POLL_MS });
    // A config that does not read: 0, and the model in use stays.
    assert.equal(await loadConfig(page, '{"model_type": 7'), 0);
    await waitForIdle(page);
    assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=6.738415616B');
    assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 13\.48 GB/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

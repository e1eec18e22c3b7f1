// The page leaves the engine models out (web/main_web.cpp wraps their entry points at link time: with them
// the page would weigh about 382 KB against its 340 KB budget, bench/RESULTS.md). This checks that it says so wherever
// they would be, and that nothing silently stands in for them: the engine settings are refused by name
// (a link's engine=vllm keeps the last good state), the form has no engine rows, fromCommand and reconcile
// answer with the same note, and the text view has no command or log boxes. The desktop app and the CLI keep the engines (tests/core/engines_test.cpp, tests/cli).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveSite, openPage, waitForApi } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const NOTE = /are in the desktop app and the CLI .* This page leaves them out: with them it would weigh about 382 KB, over its 340 KB size budget\.$/;
const ENGINE_KEYS = ['engine', 'ubatch', 'nbatch', 'ngl', 'split-mode', 'flash-attn', 'v-dtype', 'parallel', 'kv-unified',
  'swa-full', 'mmap', 'gpu-util', 'max-num-seqs', 'max-batched-tokens', 'block-size', 'enforce-eager'];

test('engine settings are refused by name and keep the last good state', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  await page.evaluate(() => window.llmMemory.setState('model=llama-2-7b&context=4096'));
  const good = await page.evaluate(() => window.llmMemory.getState());
  for (const key of ENGINE_KEYS) {
    const r = await page.evaluate((k) => window.llmMemory.setState('model=llama-2-7b&context=4096&' + k + '=1'), key);
    assert.equal(r.ok, false, key);
    assert.match(r.error, new RegExp('^' + key.replace('.', '\\.') + ': '), r.error);
    assert.match(r.error, NOTE, r.error);
    assert.equal(await page.evaluate(() => window.llmMemory.getState()), good, key);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('fromCommand and reconcile answer with the note, and send nothing', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await waitForApi(page);
  const before = requests.length;
  const stateBefore = await page.evaluate(() => window.llmMemory.getState());
  const command = await page.evaluate(() => window.llmMemory.fromCommand('llama-server -m x.gguf -c 32768'));
  assert.equal(command.ok, false);
  assert.match(command.message, NOTE);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), stateBefore);
  const log = await page.evaluate(() => window.llmMemory.reconcile('llama_kv_cache: CUDA0 KV buffer size = 4096.00 MiB'));
  assert.match(log.error, NOTE);
  assert.equal(requests.length, before, requests.slice(before).join(', '));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the text view has no engine rows and no command or log boxes', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#view=text');
  await waitForApi(page);
  await page.locator('#text-view').waitFor();
  const rows = JSON.parse(await page.evaluate(() => Module.ccall('llm_memory_view_json', 'string', [], []))).settings;
  assert.ok(rows.length >= 20, `${rows.length} settings`);
  assert.deepEqual(rows.map((r) => r.key).filter((k) => ENGINE_KEYS.includes(k)), []);
  assert.equal(await page.locator('#tv-command, #tv-log').count(), 0);  // no command or log boxes
  assert.deepEqual(errors, []);
  await context.close();
});

// Engine commands and logs on the page: fromCommand sets the scenario as `llm-memory --from-command` does
// (the same KV cache bytes in estimate()), reconcile reads a pasted log in the page as `llm-memory reconcile`
// does (fedora-copr/logdetective PR 106's llama-server log: 4096 MiB of KV at n_ctx 32768), and the text
// view's boxes drive both. Nothing is fetched: the test fails on any request but the page's own files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, cliPath, repoRoot } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const command = 'llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa -ctk q8_0 --port 8080';
const log = fs.readFileSync(path.join(repoRoot, 'tests/fixtures/engine_logs/logdetective-pr106-ctx32768.log'), 'utf8');

function cli(args) {
  const run = spawnSync(cliPath, args, { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test('fromCommand sets the scenario as --from-command does; a bad value changes nothing', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const result = await page.evaluate((c) => window.llmMemory.fromCommand(c), command);
  assert.equal(result.ok, true, result.message);
  assert.match(result.message, /model llama-3\.1-8b/);
  assert.ok(result.notes.some((n) => n === 'ignored (no effect on memory): --port 8080'), result.notes.join('\n'));
  const fromCli = JSON.parse(cli(['--from-command', command, '--format', 'json']));
  const fromPage = await page.evaluate(() => window.llmMemory.estimate());
  assert.equal(fromPage.kv_cache_bytes, fromCli.kv_cache_bytes);
  assert.equal(fromPage.kv_cache_bytes, 2281701376);  // 32 x 1024 x 2 x 32768 x 34/32 bytes (q8_0)
  const stateBefore = await page.evaluate(() => window.llmMemory.getState());
  const bad = await page.evaluate(() => window.llmMemory.fromCommand('llama-server -m a.gguf -c lots'));
  assert.equal(bad.ok, false);
  assert.equal(bad.message, '-c: "lots" is not a whole number');
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), stateBefore);
  assert.deepEqual(errors, []);
  await context.close();
});

test('reconcile reads a pasted log in the page, as `llm-memory reconcile` does', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await waitForApi(page);
  await page.evaluate(() => window.llmMemory.setState('model=llama-3-8b'));
  const before = requests.length;
  const result = await page.evaluate((l) => window.llmMemory.reconcile(l), log);
  assert.equal(result.error, undefined, result.error);
  const kv = result.rows.find((r) => r.term === 'kv_cache' && r.device === 'gpu0');
  assert.equal(kv.measured, 4294967296);
  assert.equal(kv.estimated, 4294967296);
  const fromCli = cli(['reconcile', path.join(repoRoot, 'tests/fixtures/engine_logs/logdetective-pr106-ctx32768.log'), '--model', 'llama-3-8b']);
  assert.ok(fromCli.includes(result.text.split('\n').find((l) => l.startsWith('kv_cache            gpu0'))));
  assert.equal(requests.length, before, 'reconciling made a request: ' + requests.slice(before).join(', '));
  const junk = await page.evaluate(() => window.llmMemory.reconcile('hello'));
  assert.match(junk.error, /^no llama\.cpp, Ollama, vLLM or nvidia-smi memory line found/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the text view: paste a command, then a log', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#view=text');
  await waitForApi(page);
  await page.fill('#tv-command', command);
  await page.click('#tv-command-use');
  await page.waitForFunction(() => document.getElementById('tv-command-out').textContent.startsWith('Set from the llama-server command'));
  assert.equal(await page.inputValue('#set-context'), '32768');
  await page.fill('#tv-log', log);
  await page.click('#tv-reconcile');
  await page.waitForFunction(() => document.getElementById('tv-reconcile-out').textContent.includes('kv_cache'));
  const text = await page.textContent('#tv-reconcile-out');
  assert.match(text, /^Reconciled: a llama\.cpp log/);
  assert.deepEqual(errors, []);
  await context.close();
});

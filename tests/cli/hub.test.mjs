// `llm-memory --hf` against our fake Hub (tests/files/fake_hub.mjs) through HF_ENDPOINT: what each kind of
// repo reads (requests and bytes, counted by the servers too), the cache that makes a second run offline,
// HF_TOKEN for a gated repo (never sent to the storage host), and every failure as exit 2 with one
// `error:` line. No test reaches the internet. Run: node --test tests/cli/hub.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeHub } from '../files/fake_hub.mjs';
import { GGML_TYPES } from '../files/model_files.mjs';

const bin = process.env.LLM_MEMORY_BIN || 'build/native/llm-memory';
const dir = mkdtempSync(join(tmpdir(), 'llm-memory-hub-'));
let hub;
let cacheCount = 0;
before(async () => { hub = await startFakeHub(); });
after(async () => { await hub.close(); rmSync(dir, { recursive: true, force: true }); });

// Runs the CLI (asynchronously: the fake Hub answers from this process) with a fresh cache unless given.
function run(args, env = {}) {
  const cache = env.XDG_CACHE_HOME || join(dir, `cache-${++cacheCount}`);
  return new Promise((resolve) => {
    const child = spawn(bin, args, {
      env: { PATH: process.env.PATH, HOME: dir, HF_ENDPOINT: hub.endpoint, ...env, XDG_CACHE_HOME: cache },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => resolve({ code, out, err, cache }));
  });
}
async function json(args, env) {
  const r = await run([...args, '--format', 'json'], env);
  assert.equal(r.code, 0, r.err);
  return { ...JSON.parse(r.out), cache: r.cache };
}
async function fails(args, env, pattern) {
  const r = await run(args, env);
  assert.equal(r.code, 2, r.out);
  assert.equal(r.out, '');
  const lines = r.err.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0], /^error: --hf: /);
  assert.match(lines[0], pattern);
  return lines[0];
}

test('safetensors repo: config.json, the index, then each shard header in two ranges (8 bytes, then the header)', async () => {
  const from = hub.requests.length;
  const repo = hub.repos.get('test-org/tiny-llama');
  const r = await json(['--hf', 'test-org/tiny-llama', '--context', '4096']);
  const served = hub.requests.slice(from);
  assert.deepEqual(served.map((q) => `${q.host} ${q.status} ${q.range || ''}`.trim()), [
    'hub 200', 'hub 200', 'hub 200',
    'hub 302 bytes=0-7', 'storage 206 bytes=0-7', 'hub 302', 'storage 206',
    'hub 302 bytes=0-7', 'storage 206 bytes=0-7', 'hub 302', 'storage 206',
  ].map((s, i) => (s === 'hub 302' || s === 'storage 206' ? `${s} bytes=8-${7 + repo.expected.headerBytes[i < 7 ? 0 : 1]}` : s)));
  assert.equal(r.hub.requests, 7);
  assert.equal(r.hub.bytes_read, hub.bytesSince(from));  // what the servers sent, counted by them
  const [api, config, index] = served;
  assert.equal(r.hub.bytes_read, api.bytes + config.bytes + index.bytes + 2 * 8 + repo.expected.headerBytes[0] + repo.expected.headerBytes[1]);
  // The reference: the shapes of the tensors the fixture's headers list (1,692,928 BF16 weights).
  assert.equal(r.parameters, repo.expected.params);
  assert.equal(r.weight_bytes, repo.expected.weightBytes);
  assert.equal(r.hub.config_parameters, repo.expected.params);  // config.json counts the same: the architecture stays
  assert.equal(r.file.format, 'safetensors');
  assert.ok(r.kv_cache_bytes > 0, 'the config architecture gives the KV cache');
  assert.equal(r.hub.source, 'safetensors headers');
});

test('a second run reads the cache, not the network; HF_HUB_OFFLINE=1 with an empty cache names the problem', async () => {
  const first = await json(['--hf', 'test-org/tiny-llama']);
  const from = hub.requests.length;
  const again = await json(['--hf', 'test-org/tiny-llama'], { XDG_CACHE_HOME: first.cache });
  assert.equal(hub.requests.length, from, 'no request on the second run');
  assert.equal(again.parameters, first.parameters);
  const offline = await json(['--hf', 'test-org/tiny-llama'], { XDG_CACHE_HOME: first.cache, HF_HUB_OFFLINE: '1' });
  assert.equal(offline.weight_bytes, first.weight_bytes);
  await fails(['--hf', 'test-org/tiny-llama'], { HF_HUB_OFFLINE: '1' }, /HF_HUB_OFFLINE is set and it is not in the cache/);
  assert.equal(hub.requests.length, from);
});

test('GGUF repo: several quants ask for a pick (the vision projector is not offered); a picked one reads one 64 KiB chunk', async () => {
  await fails(['--hf', 'test-org/tiny-llama-GGUF'], {},
    /: the repo has 2 GGUF files; pick one with --hf test-org\/tiny-llama-GGUF:FILE \(tiny-llama-Q4_K_M\.gguf, tiny-llama-Q8_0\.gguf\)$/);
  const from = hub.requests.length;
  const repo = hub.repos.get('test-org/tiny-llama-GGUF');
  const r = await json(['--hf', 'https://huggingface.co/test-org/tiny-llama-GGUF/blob/main/tiny-llama-Q4_K_M.gguf']);
  const storage = hub.requests.slice(from).filter((q) => q.host === 'storage');
  assert.deepEqual(storage.map((q) => q.range), ['bytes=0-65535']);
  assert.equal(storage[0].bytes, 65536);  // of a file of 8 MiB and more: the header's chunk only
  assert.equal(r.parameters, repo.expected.params);
  assert.equal(r.file.weight_bytes, repo.expected.weightBytes);
  assert.equal(r.hub.file, 'tiny-llama-Q4_K_M.gguf');
});

test('a 2.6 MB GGUF header is read in doubling chunks up to the one holding its end', async () => {
  const from = hub.requests.length;
  const repo = hub.repos.get('test-org/big-vocab-GGUF');
  const r = await json(['--hf', 'test-org/big-vocab-GGUF']);
  const chunks = hub.requests.slice(from).filter((q) => q.host === 'storage').map((q) => q.bytes);
  assert.deepEqual(chunks, [65536, 131072, 262144, 524288, 1048576, 2097152]);
  const sum = chunks.reduce((a, b) => a + b, 0);
  assert.ok(sum - chunks[chunks.length - 1] < repo.expected.headerBytes && sum >= repo.expected.headerBytes);
  assert.equal(r.parameters, repo.expected.params);
  assert.equal(r.file.types.length, GGML_TYPES.length);
});

test('gated repo: the public totals without a token; the config with one; a token without access is named', async () => {
  const from = hub.requests.length;
  const open = await json(['--hf', 'meta-llama/Llama-3.1-8B']);
  assert.equal(hub.requests.length - from, 1, 'only the public API is asked without a token');
  assert.equal(open.hub.source, 'Hub metadata');
  assert.equal(open.hub.gate, 'manual');
  // The Hub's total for Llama 3.1 8B equals the count of its config.json (our preset llama-3.1-8b).
  const preset = await json(['--model', 'llama-3.1-8b']);
  assert.equal(open.parameters, preset.parameters);
  assert.equal(open.weight_bytes, 2 * preset.parameters);
  const table = await run(['--hf', 'meta-llama/Llama-3.1-8B']);
  assert.match(table.out, /accept the conditions on its Hub page, then set HF_TOKEN to a token of that account/);

  const withToken = await json(['--hf', 'meta-llama/Llama-3.1-8B'], { HF_TOKEN: 'good-token' });
  assert.equal(withToken.hub.source, 'config.json');
  assert.equal(withToken.parameters, 8030261248);  // meta-llama-3-8b.json's exact count
  const noAccess = await run(['--hf', 'meta-llama/Llama-3.1-8B'], { HF_TOKEN: 'not-accepted' });
  assert.equal(noAccess.code, 0);
  assert.match(noAccess.out, /the token in HF_TOKEN has no access yet/);
  // The token goes to the Hub only, never to the storage host a redirect leads to.
  await json(['--hf', 'test-org/tiny-llama'], { HF_TOKEN: 'good-token' });
  const sent = hub.requests.slice(from);
  assert.ok(sent.some((q) => q.host === 'hub' && q.auth === 'Bearer good-token'));
  assert.ok(sent.filter((q) => q.host === 'storage').every((q) => q.auth === null));
  await fails(['--hf', 'test-org/gated-no-metadata'], {},
    /it is a gated model \("auto" approval\), and the Hub publishes no parameter totals for it\. To read it, accept the conditions on its Hub page, then set HF_TOKEN/);
});

test('failures: exit 2 with one error line naming the problem', async () => {
  await fails(['--hf', 'test-org/nope'], {}, /test-org\/nope: no such model on 127\.0\.0\.1:\d+ \(HTTP 401\): check the id; a private repo needs HF_TOKEN$/);
  await fails(['--hf', 'test-org/tiny-llama-GGUF:missing.gguf'], {}, /no file "missing\.gguf" in the repo \(it has /);
  await fails(['--hf', 'test-org/slow'], { HF_HUB_DOWNLOAD_TIMEOUT: '1' }, /the file list: timed out: 127\.0\.0\.1:\d+ sent nothing for 1 s \(HF_HUB_DOWNLOAD_TIMEOUT\)$/);
  await fails(['--hf', 'test-org/tiny-llama'], { HF_ENDPOINT: 'http://127.0.0.1:9' }, /cannot connect to 127\.0\.0\.1:9 \(no network, or the host is down\)$/);
  await fails(['--hf', 'test-org/bad-header'], {}, /model\.safetensors: safetensors header: not valid JSON/);
  await fails(['--hf', 'test-org/huge-header'], {}, /model\.safetensors: its header is 50 MB, more than the 16 MiB this look-up reads of one header$/);
  await fails(['--hf', 'llama-3'], {}, /"llama-3" is not a model id/);
  await fails(['--hf', 'https://huggingface.co/datasets/a/b'], {}, /is a dataset, not a model$/);
  await fails(['--hf', 'a/b'], { HF_ENDPOINT: 'ftp://x' }, /HF_ENDPOINT "ftp:\/\/x" must start with https:\/\//);
});

test('Mistral\'s two formats: config.json (text_config + vision_config) when shipped, else params.json with its vision_encoder', async () => {
  // mistralai/Mistral-Small-3.1-24B-Instruct-2503: 24,011,361,280 parameters, the Hub's safetensors total on its
  // model card (24B): the 23,572,403,200 text model, the Pixtral tower and the Mistral 3 projector.
  const both = await json(['--hf', 'mistralai/Mistral-Small-3.1-24B-Instruct-2503']);
  assert.equal(both.hub.source, 'config.json');
  assert.equal(both.parameters, 24011361280);
  // The same model in params.json alone: its vision_encoder is counted too (not the text model's 23,572,403,200).
  const params = await json(['--hf', 'test-org/mistral3-params-only']);
  assert.equal(params.hub.source, 'params.json');
  assert.equal(params.parameters, 24011361280);
  assert.equal(params.hub.config_parameters, 24011361280);
  // Pixtral 12B's params.json has no patch merger: counted as LLaVA's projector, the same 12,682,739,712 as
  // transformers' conversion (mistral-community/pixtral-12b), not refused and not the text model's 12,247,782,400.
  const pixtral = await json(['--hf', 'mistralai/Pixtral-12B-2409']);
  assert.equal(pixtral.hub.source, 'params.json');
  assert.equal(pixtral.parameters, 12682739712);
});

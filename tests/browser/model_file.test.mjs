// Model files on the page (web/model_exports.cpp, web/api.js): a GGUF or safetensors file dropped on the
// page or picked with the Model section's "Open a model file..." button is read header only, in 1 MiB
// File.slice chunks, through core's ModelFileReader, and gives the same figures as
// `llm-memory --gguf/--safetensors FILE --format json` (compared field by field, the "file" object
// included). Files come from tests/files/model_files.mjs: the sample llama (2,873,616 weights in 1,953,520
// bytes, its docstring), every ggml type under a 150,000-token tokenizer (a header of several MB), a GPTQ
// safetensors file. Bad files show the CLI's own message on the Model panel and keep the model in use.
// Slices are counted by wrapping Blob.prototype.slice: a file with a 1 GiB data section is read no further
// than its header and one chunk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launch, serveSite, openPage, waitForApi, waitForIdle, cliPath, shotDir, POLL_MS } from './harness.mjs';
import { itemRect } from './touch_support.mjs';
import { everyTypeGguf, mistralSmallMmproj, sampleGguf, sampleSafetensors, writeGguf } from '../files/model_files.mjs';

const CHUNK_BYTES = 1 << 20;  // web/api.js CHUNK_BYTES
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-memory-page-files-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

function writeFile(name, bytes) {
  fs.writeFileSync(path.join(dir, name), bytes);
  return path.join(dir, name);
}

// `llm-memory ARGS --format json` run in the files' folder (so the model is named as on the page):
// {json} or {error: its message without the "--gguf: " / "--safetensors: " flag}.
function cli(...args) {
  const run = spawnSync(cliPath, [...args, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  if (run.status === 0) return { json: JSON.parse(run.stdout) };
  const message = run.stderr.trim().split('\n')[0].replace(/^error: /, '').replace(/^--(gguf|safetensors): /, '');
  return { error: message };
}

// Counts Blob.prototype.slice (window.sliced: {calls, bytes, maxEnd}); run before the page's scripts.
function countSlices() {
  const slice = Blob.prototype.slice;
  window.sliced = { calls: 0, bytes: 0, maxEnd: 0 };
  Blob.prototype.slice = function (...args) {
    const part = slice.apply(this, args);
    const start = args[0] === undefined ? 0 : args[0] < 0 ? Math.max(0, this.size + args[0]) : Math.min(args[0], this.size);
    window.sliced.calls += 1;
    window.sliced.bytes += part.size;
    window.sliced.maxEnd = Math.max(window.sliced.maxEnd, start + part.size);
    return part;
  };
}

// A page with slices counted, its API ready.
async function openCounted(url, options = { viewport: { width: 1280, height: 800 } }) {
  const { viewport, ...rest } = options;
  const opened = await openPage(browser, url, viewport, { ...rest, initScript: countSlices });
  await waitForApi(opened.page);
  return opened;
}

// Waits for the status bar's word on `name` (web/api.js writes it once the file is read or refused).
async function readDone(page, name) {
  await page.waitForFunction((n) => {
    const text = document.getElementById('status').textContent;
    return text === `Read ${n} (header only).` || text === `Could not read ${n} (see the Model section).`;
  }, name, { timeout: 20000, polling: POLL_MS });
}
const clearStatus = (page) => page.evaluate(() => { document.getElementById('status').textContent = ''; });

// A synthetic drop of Files on the canvas (a DataTransfer, as a browser builds it), each [name, bytes]; waits for
// the status bar's word on the last one.
async function dropFiles(page, files) {
  await clearStatus(page);
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const { n, b64 } of list) {
      const raw = atob(b64);
      const data = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) data[i] = raw.charCodeAt(i);
      dt.items.add(new File([data], n));
    }
    return dt;
  }, files.map(([n, bytes]) => ({ n, b64: Buffer.from(bytes).toString('base64') })));
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: transfer });
  await readDone(page, files[files.length - 1][0]);
}
const dropFile = (page, name, bytes) => dropFiles(page, [[name, bytes]]);

// The Model panel's message and whether it is an error (the text view's data: what the panel draws).
const panelMessage = (page) => page.evaluate(() => {
  const view = JSON.parse(Module.ccall('llm_memory_view_json', 'string', [], []));
  return { text: view.model, error: view.model_error };
});
const pageEstimate = (page) => page.evaluate(() => window.llmMemory.estimate());

test('a dropped GGUF gives the CLI\'s figures, and a truncated one is refused with its message while the model stays', async () => {
  const sample = sampleGguf();
  writeFile('sample.gguf', sample.bytes);
  const expected = cli('--gguf', 'sample.gguf').json;
  assert.equal(expected.file.parameters, 2873616);    // tests/files/model_files.mjs: the sample llama
  assert.equal(expected.file.weight_bytes, 1953520);
  const { page, errors, context, requests } = await openCounted(server.url);
  const requestsBefore = requests.length;
  await dropFile(page, 'sample.gguf', sample.bytes);
  assert.deepEqual(await pageEstimate(page), expected);
  const shown = await panelMessage(page);
  assert.equal(shown.error, false);
  assert.match(shown.text, /^Read sample\.gguf \(header only\):\nGGUF v3: Sample Llama \(llama\), 40 tensors/);
  assert.match(shown.text, /total: 2,873,616 weights in 1,953,520 bytes/);
  // The text view says so too.
  await page.click('#text-view-toggle');
  await page.waitForFunction(() => document.getElementById('tv-model').textContent.startsWith('Read sample.gguf (header only):'), null, { polling: POLL_MS });

  // Truncated inside the tokenizer array: the CLI's message, on the panel and in the text view; the model stays.
  const truncated = sample.bytes.slice(0, 5000);
  writeFile('truncated.gguf', truncated);
  const refused = cli('--gguf', 'truncated.gguf');
  assert.ok(refused.error && refused.error.startsWith('truncated.gguf: GGUF: '), JSON.stringify(refused));
  await dropFile(page, 'truncated.gguf', truncated);
  assert.deepEqual(await panelMessage(page), { text: refused.error, error: true });
  assert.equal(await page.locator('#tv-model').textContent(), refused.error);
  assert.equal(await page.locator('#tv-model').getAttribute('class'), 'tv-err');
  assert.deepEqual(await pageEstimate(page), expected);
  assert.equal(await page.locator('#status').textContent(), 'Could not read truncated.gguf (see the Model section).');
  // Nothing was uploaded or fetched for either file.
  assert.deepEqual(requests.slice(requestsBefore), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('bad files are refused with the CLI\'s message naming the problem, and the model in use stays', async () => {
  const sample = sampleGguf().bytes;
  const u64At = (bytes, at, value) => { const b = bytes.slice(); new DataView(b.buffer).setBigUint64(at, value, true); return b; };
  const cases = [
    ['wrong-magic.gguf', Uint8Array.from([0x50, 0x4b, 3, 4, ...new Uint8Array(60)]), /not a GGUF file or a safetensors file \(it starts with "PK/],
    ['huge-count.gguf', u64At(sample, 8, 1n << 62n), /the header claims 4,611,686,018,427,387,904 tensors/],
    ['long-string.gguf', u64At(sample, 24, 1n << 40n), /a metadata key has a length of 1,099,511,627,776 bytes, longer than the rest of the file at byte 24/],
    ['unknown-type.gguf', writeGguf([['general.architecture', 'str', 'llama']], [['blk.0.attn_q.weight', [64, 2], 99]]).bytes,
      /tensor 0 "blk\.0\.attn_q\.weight" has unknown tensor type 99/],
    ['cut.safetensors', sampleSafetensors().bytes.slice(0, 100), /the header length [\d,]+ is longer than the file \(100 bytes/],
  ];
  const { page, errors, context } = await openCounted(server.url + '#model=llama-2-7b');
  const before = await pageEstimate(page);
  const stateBefore = await page.evaluate(() => window.llmMemory.getState());
  assert.equal(before.parameters, 6738415616);  // Llama-2-7B's config.json (tests/browser/config_drop.test.mjs)
  for (const [name, bytes, problem] of cases) {
    writeFile(name, bytes);
    const refused = cli(name.endsWith('.gguf') ? '--gguf' : '--safetensors', name);
    assert.ok(refused.error, `${name}: the CLI read it`);
    assert.match(refused.error, problem);
    const result = await page.evaluate(({ n, b64 }) => {
      const raw = atob(b64);
      const data = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) data[i] = raw.charCodeAt(i);
      return window.llmMemory.readModelFile(new File([data], n));
    }, { n: name, b64: Buffer.from(bytes).toString('base64') });
    assert.deepEqual(result, { ok: false, error: refused.error, file: null }, name);
    assert.deepEqual(await panelMessage(page), { text: refused.error, error: true }, name);
    assert.deepEqual(await pageEstimate(page), before, name);
  }
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), stateBefore);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the "Open a model file..." button picks a GGUF with a header of several MB: the CLI\'s figures, read no further than the header', async () => {
  // Every ggml type and a 150,000-token tokenizer, plus one F32 tensor of 1 GiB: a sparse file on disk.
  const big = everyTypeGguf({ extra: [['blk.0.big.weight', [16384, 16384], 0]], headerOnly: true });
  const header = big.bytes.length;
  assert.ok(header > 2.5e6, `header ${header}`);
  const file = writeFile('every-type.gguf', big.bytes);
  fs.truncateSync(file, header + big.dataBytes);
  assert.ok(fs.statSync(file).size > 2 ** 30);
  const expected = cli('--gguf', 'every-type.gguf').json;
  assert.equal(expected.file.types.length, 34);
  assert.equal(expected.file.vocab_size, 150000);
  assert.equal(expected.file.data_offset, header);

  const { page, errors, context } = await openCounted(server.url, { viewport: { width: 1280, height: 800 }, fileChooser: true });
  const section = await itemRect(page, 'Model: preset, config.json or model file');
  await page.mouse.click(section.cx, section.cy);
  const button = await itemRect(page, 'Open a model file...');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.mouse.click(button.cx, button.cy)]);
  await clearStatus(page);
  await chooser.setFiles(file);
  await readDone(page, 'every-type.gguf');
  assert.deepEqual(await pageEstimate(page), expected);
  const sliced = await page.evaluate(() => window.sliced);
  assert.ok(sliced.maxEnd <= header + CHUNK_BYTES, `read up to byte ${sliced.maxEnd} of a ${header}-byte header`);
  assert.ok(sliced.bytes <= header + CHUNK_BYTES, `sliced ${sliced.bytes} bytes`);
  assert.ok(sliced.calls <= Math.ceil(header / CHUNK_BYTES), `${sliced.calls} slices`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a safetensors file through the picker\'s input and an index after a model: the CLI\'s figures', async () => {
  const st = sampleSafetensors();
  const file = writeFile('sample.safetensors', st.bytes);
  const expected = cli('--safetensors', 'sample.safetensors').json;
  assert.equal(expected.file.data_bytes, st.dataBytes);
  const index = JSON.stringify({ metadata: { total_size: 13476831232 },
    weight_map: { 'a.weight': 'model-00001-of-00002.safetensors', 'b.weight': 'model-00002-of-00002.safetensors' } });
  const indexFile = writeFile('model.safetensors.index.json', index);
  const { page, errors, context } = await openCounted(server.url);
  await clearStatus(page);
  await page.setInputFiles('#model-file', file);
  await readDone(page, 'sample.safetensors');
  assert.deepEqual(await pageEstimate(page), expected);
  // An index gives bytes only: without a model it is refused, as on the CLI (which warns and keeps N).
  const noModel = await page.evaluate(() => window.llmMemory.setState('params=13B'));
  assert.equal(noModel.ok, true);
  await clearStatus(page);
  await page.setInputFiles('#model-file', indexFile);
  await readDone(page, 'model.safetensors.index.json');
  const refused = await panelMessage(page);
  assert.equal(refused.error, true);
  assert.match(refused.text, /^model\.safetensors\.index\.json: safetensors index: gives the bytes but not the parameter count/);
  // With Llama-2-7B chosen: b = 13,476,831,232 bytes / 6,738,415,616 parameters = 2.
  assert.equal((await page.evaluate(() => window.llmMemory.setState('model=llama-2-7b'))).ok, true);
  await clearStatus(page);
  await page.setInputFiles('#model-file', indexFile);
  await readDone(page, 'model.safetensors.index.json');
  const withModel = cli('--model', 'llama-2-7b', '--safetensors', 'model.safetensors.index.json').json;
  assert.equal(withModel.weight_bytes, 13476831232);
  assert.deepEqual(await pageEstimate(page), withModel);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a model GGUF and its mmproj file dropped together: the projector joins the model under llama.cpp, as the CLI reads them', async () => {
  // A 5,120-wide language model (no vision_config in a GGUF) and Mistral Small 3.x's projector file
  // (tests/files/model_files.mjs): 86,630,400 bytes at warm-up with flash attention off (82.62 MiB: llama.cpp's own
  // clip.cpp, bench/mmproj/README.md).
  const model = writeGguf([
    ['general.architecture', 'str', 'llama'], ['llama.block_count', 'u32', 40], ['llama.embedding_length', 'u32', 5120],
    ['llama.attention.head_count', 'u32', 32], ['llama.attention.head_count_kv', 'u32', 8], ['llama.attention.key_length', 'u32', 128],
    ['llama.attention.value_length', 'u32', 128], ['llama.vocab_size', 'u32', 131072],
  ], [['token_embd.weight', [5120, 16], 1]]);
  const mmproj = mistralSmallMmproj();
  writeFile('ms.gguf', model.bytes);
  writeFile('mmproj-ms.gguf', mmproj.bytes);
  // (An engine link names a model, which the dropped GGUF then replaces, as --gguf replaces --model.)
  const link = 'model=mistral-small-3.1-24b&engine=llama.cpp&gpu=rtx-4090&context=8192&flash-attn=off';
  const expected = cli('--model', 'mistral-small-3.1-24b', '--engine', 'llama.cpp', '--gpu', 'rtx-4090', '--context', '8192', '--flash-attn', 'off', '--gguf', 'ms.gguf',
    '--mmproj', 'mmproj-ms.gguf').json;
  const terms = JSON.stringify(expected.engine);
  assert.match(terms, /"key":"mmproj_compute_buffer","label":"Projector compute buffer","bytes":86630400,/);
  assert.match(terms, new RegExp(`"key":"mmproj_buffer","label":"Projector weights \\(mmproj\\)","bytes":${mmproj.weightBytes},`));

  // The lean page has no engine: a projector file is refused with the note, and the model stays.
  let opened = await openCounted(server.url);
  const before = await pageEstimate(opened.page);
  await dropFile(opened.page, 'mmproj-ms.gguf', mmproj.bytes);
  const refused = await panelMessage(opened.page);
  assert.equal(refused.error, true);
  assert.match(refused.text, /^mmproj-ms\.gguf: mmproj: the engine models are in the page's full build/);
  assert.deepEqual(await pageEstimate(opened.page), before);
  assert.deepEqual(opened.errors, []);
  await opened.context.close();

  // The full build (a link with an engine): both files in one drop, the model first, as the CLI reads them.
  opened = await openCounted(`${server.url}#${link}`);
  await dropFiles(opened.page, [['ms.gguf', model.bytes], ['mmproj-ms.gguf', mmproj.bytes]]);
  const shown = await panelMessage(opened.page);
  assert.equal(shown.error, false, shown.text);
  assert.match(shown.text, /^Read mmproj-ms\.gguf \(header only\):\nllama\.cpp's vision projector \(--mmproj\), pixtral: Pixtral \(Mistral 3\), beside the model\n/);
  const page = await pageEstimate(opened.page);
  assert.deepEqual(page.engine, expected.engine);
  assert.equal(page.parameters, expected.parameters);
  assert.deepEqual(opened.errors, []);
  await opened.context.close();
});

test('screenshots: the Model section shows the file\'s report (desktop 1280x800, phone 390x844 at DPR 3)', async () => {
  const sample = sampleGguf();
  fs.mkdirSync(shotDir, { recursive: true });
  for (const [label, options] of [
    ['desktop', { viewport: { width: 1280, height: 800 } }],
    ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }]]) {
    const { page, errors, context } = await openCounted(server.url, options);
    await dropFile(page, 'sample.gguf', sample.bytes);
    // The Model section opened to show the report: its first line is drawn.
    await itemRect(page, 'Open a model file...');
    await waitForIdle(page);
    await page.screenshot({ path: path.join(shotDir, `model_file_${label}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

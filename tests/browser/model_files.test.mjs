// Model files round trip: one generated GGUF file and one safetensors file give the same figures through
// the CLI (--gguf / --safetensors), the page (the file dropped on it, and picked with the Model panel's
// "Open a model file..." button) and the desktop app (--open FILE, the code path of a file dropped on its
// window). On the page the file is read with File.slice one chunk (at most 1 MiB) at a time until core says
// the header is complete: the tensor data is never read, nor the file read whole.
// Files: tests/files/model_files.mjs. The GGUF has a 150,000-token vocabulary (about 3 MB of metadata, so
// the header spans several chunks) and 31.5 MB of tensor data; figures are the CLI's, compared exactly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, waitForIdle, cliPath, repoRoot } from './harness.mjs';
import { itemRect } from './touch_support.mjs';
import { sampleGguf, sampleSafetensors } from '../files/model_files.mjs';

const guiPath = path.resolve(process.env.LLM_MEMORY_GUI || path.join(repoRoot, 'build/native/llm-memory-gui'));
const CHUNK = 1 << 20;
const dir = mkdtempSync(path.join(tmpdir(), 'llm-memory-roundtrip-'));
let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); rmSync(dir, { recursive: true, force: true }); });

// 150,000 tokens and a tied head: token_embd in Q6_K is 38,400,000 weights = 31,500,000 bytes of data.
const gguf = sampleGguf({ vocab: 150000, head: false, name: 'Round trip' });
const ggufName = 'roundtrip.gguf';
writeFileSync(path.join(dir, ggufName), gguf.bytes);
const safetensors = sampleSafetensors();
const safetensorsName = 'roundtrip.safetensors';
writeFileSync(path.join(dir, safetensorsName), safetensors.bytes);

// The CLI's JSON for the file (run in `dir`, so the model's name is the bare file name, as on the page).
function cli(flag, name, extra = []) {
  return JSON.parse(execFileSync(cliPath, [...extra, flag, name, '--format', 'json'], { cwd: dir, encoding: 'utf8' }));
}

// The desktop app: starts with `state`, reads the file as its drop handler does, prints core's JSON.
function desktop(name, state) {
  const stateFile = path.join(dir, `${name}.state`);
  writeFileSync(stateFile, state + '\n');
  const out = execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1000x700x24', guiPath, '--frames', '4', '--size', '1000x700',
    '--state-file', stateFile, '--open', path.join(dir, name), '--print-report'], { encoding: 'utf8', timeout: 60000 });
  return { report: JSON.parse(out.trim().split('\n').pop()), state: readFileSync(stateFile, 'utf8').trim() };
}

// Every field core's JSON has for the scenario, minus the file's own object (the CLI adds it).
function figures(report) {
  const { file, ...rest } = report;
  return rest;
}

// Records every Blob.slice and every read of a Blob's bytes the page makes (File inherits both).
async function watchReads(page) {
  await page.evaluate(() => {
    window.__slices = [];
    window.__reads = [];
    const slice = Blob.prototype.slice;
    Blob.prototype.slice = function (start, end, type) {
      window.__slices.push([start, end, this.size]);
      return slice.call(this, start, end, type);
    };
    for (const method of ['arrayBuffer', 'text', 'stream']) {
      const original = Blob.prototype[method];
      Blob.prototype[method] = function () { window.__reads.push([method, this.size]); return original.call(this); };
    }
  });
}

// The page's figures: the text view's rows ({key: bytes}) and its state string.
async function pageFigures(page) {
  return page.evaluate(() => {
    const view = JSON.parse(Module.ccall('llm_memory_view_json', 'string', [], []));
    return { rows: Object.fromEntries(view.report.results.map((r) => [r.key, r.bytes])), state: window.llmMemory.getState() };
  });
}

function assertSameFigures(pageResult, report, what) {
  for (const [key, bytes] of Object.entries(pageResult.rows)) {
    assert.equal(bytes, report[`${key}_bytes`], `${what}: ${key}_bytes`);
  }
  assert.ok(Object.keys(pageResult.rows).length >= 4, `${what}: rows ${JSON.stringify(pageResult.rows)}`);
}

// Header only: every chunk read is at most 1 MiB and they stop within a chunk of the data offset.
async function assertHeaderOnly(page, size, dataOffset) {
  const { slices, reads } = await page.evaluate(() => ({ slices: window.__slices, reads: window.__reads }));
  assert.ok(slices.length >= 3, `the header spans three chunks (${slices.length} slices)`);
  for (const [start, end, of] of slices) {
    assert.equal(of, size, 'slices are of the file');
    assert.ok(end - start <= CHUNK, `a slice of ${end - start} bytes`);
  }
  const furthest = Math.max(...slices.map((s) => s[1]));
  assert.ok(furthest < dataOffset + CHUNK, `read up to byte ${furthest}; the data starts at ${dataOffset}`);
  assert.ok(furthest < size, 'not the whole file');
  for (const [method, bytes] of reads) assert.ok(bytes <= CHUNK, `${method}() on ${bytes} bytes`);
}

// Drops a file on the canvas as the browser would: `head` (base64) followed by `size - head` zero bytes.
async function dropFile(page, name, bytes, size = bytes.length) {
  await page.evaluate(({ head, size, name }) => {
    const start = Uint8Array.from(atob(head), (c) => c.charCodeAt(0));
    const file = new File([start, new Uint8Array(size - start.length)], name);
    const data = new DataTransfer();
    data.items.add(file);
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, { head: Buffer.from(bytes).toString('base64'), size, name });
}

const statusIs = (page, text) => page.waitForFunction((t) => document.getElementById('status').textContent === t, text, { timeout: 15000 });

// After the GGUF was dropped or picked: the page read its header only and shows the CLI's figures and
// the desktop app's state.
async function pageAgrees(page, how, report, desktopState, dataOffset) {
  await statusIs(page, `Read ${ggufName} (header only).`);
  await waitForIdle(page);
  const shown = await pageFigures(page);
  assertSameFigures(shown, report, how);
  assert.equal(shown.state, desktopState, how);
  await assertHeaderOnly(page, gguf.bytes.length, dataOffset);
}

test('a GGUF file: the CLI, the dropped file on the page, the picked file and the desktop app agree', async () => {
  // Llama-2-7B with a 4,096-token context first; the file then replaces the model (and its architecture).
  const report = cli('--gguf', ggufName, ['--model', 'llama-2-7b', '--context', '4096']);
  const dataOffset = report.file.data_offset;
  assert.equal(report.parameters, gguf.params);
  assert.equal(report.file.weight_bytes, gguf.weightBytes);
  assert.ok(dataOffset > 2 * CHUNK && gguf.bytes.length - dataOffset >= 31500000, `data offset ${dataOffset}`);
  assert.ok(gguf.bytes.subarray(dataOffset).every((b) => b === 0), 'the tensor data is zeros (rebuilt so in the page)');
  // 2 (K, V) x 4 layers x 4 KV heads x 32 x 4096 tokens x 2 bytes.
  assert.equal(report.kv_cache_bytes, 2 * 4 * 4 * 32 * 4096 * 2);

  const desk = desktop(ggufName, 'model=llama-2-7b&context=4096');
  assert.deepEqual(figures(desk.report), figures(report));

  const { page, errors, context } = await openPage(browser, server.url + '#model=llama-2-7b&context=4096');
  await waitForApi(page);
  await waitForIdle(page);
  await watchReads(page);
  // Dropped: the same bytes (header from here, the zero data built in the page).
  await dropFile(page, ggufName, gguf.bytes.subarray(0, dataOffset), gguf.bytes.length);
  await pageAgrees(page, 'dropped', report, desk.state, dataOffset);

  // Picked: back to Llama-2-7B, then the Model panel's button and the browser's file chooser (the file on disk).
  await page.evaluate(() => window.llmMemory.setState('model=llama-2-7b&context=4096'));
  await waitForIdle(page);
  await page.evaluate(() => { window.__slices = []; window.__reads = []; });
  // The drop opened the Model section; open it if it is not.
  const header = await itemRect(page, 'Model: preset or config.json');  // (switches the item hook on)
  const items = await page.evaluate(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['*']));
  if (!items.includes('Open a model file...')) {
    await page.mouse.click(header.cx, header.cy);
    await waitForIdle(page);
  }
  const button = await itemRect(page, 'Open a model file...');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10000 }), page.mouse.click(button.cx, button.cy)]);
  await chooser.setFiles(path.join(dir, ggufName));
  await pageAgrees(page, 'picked', report, desk.state, dataOffset);
  await page.screenshot({ path: path.join(repoRoot, 'build/screenshots/model-file-picked.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a safetensors file: the CLI, the dropped file on the page and the desktop app agree', async () => {
  const report = cli('--safetensors', safetensorsName);
  assert.equal(report.file.data_bytes, safetensors.dataBytes);
  const desk = desktop(safetensorsName, 'params=13B');
  assert.deepEqual(figures(desk.report), figures(report));

  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  await waitForIdle(page);
  await dropFile(page, safetensorsName, safetensors.bytes);
  await statusIs(page, `Read ${safetensorsName} (header only).`);
  await waitForIdle(page);
  const dropped = await pageFigures(page);
  assertSameFigures(dropped, report, 'dropped');
  assert.equal(dropped.state, desk.state);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad model file dropped on the page keeps the model and names the problem', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=7B');
  await waitForApi(page);
  await waitForIdle(page);
  // A GGUF cut inside its metadata: refused by core, 7B stays.
  await dropFile(page, 'cut.gguf', gguf.bytes.subarray(0, 5000));
  await statusIs(page, 'Could not read cut.gguf (see the model panel).');
  await waitForIdle(page);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=7B');
  assert.deepEqual(errors, []);
  await context.close();
});

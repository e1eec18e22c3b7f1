// Size budgets, enforced: the page's payload is deterministic, so unlike timings (bench/) it can fail a
// test. Every file a load of the page receives, gzip -9, summed: at most 340 KB (the lean build); the same
// for a link that asks for the engine models (the full build, loaded instead of the lean one): at most
// 434 KB; the single-file page build/web/llm-memory.html (the full build inlined), gzip -9: at most 440 KB. Method and budgets: bench/payload.mjs (bench/run
// prints the same figures; bench/RESULTS.md states the size rule).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveSite, openPage, waitForApi, waitForIdle, singleFile } from './harness.mjs';
import { payloadRecorder, singleFileSize, kb, PAGE_GZIP_BUDGET_BYTES, FULL_GZIP_BUDGET_BYTES, SINGLE_FILE_GZIP_BUDGET_BYTES } from '../../bench/payload.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Every file a load of `url` receives, once the page started and went idle.
async function payload(url) {
  const recorder = payloadRecorder();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('response', (res) => recorder.onResponse(res));
  await page.goto(url);
  await waitForApi(page);
  await waitForIdle(page);  // started and drawn: everything the page needs has been loaded
  const files = await recorder.files();
  await context.close();
  const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return { files, total, list: files.map((f) => `${f.file} ${kb(f.gzipBytes)}`).join(', ') };
}

test(`the page loads at most ${kb(PAGE_GZIP_BUDGET_BYTES)} gzipped`, async () => {
  const { files, total, list } = await payload(server.url);
  console.log(`budget: page payload ${kb(total)} gzip -9 (${total} B; budget ${kb(PAGE_GZIP_BUDGET_BYTES)}): ${list}`);
  // At least index.html + index.js + index.wasm (every other file the page loads counts too); a missing
  // one would make the sum meaningless. The full build is not loaded.
  for (const name of ['index.html', 'index.js', 'index.wasm']) assert.ok(files.some((f) => f.file === name), `${name} not loaded: ${list}`);
  assert.ok(!files.some((f) => f.file.startsWith('full.')), `the full build was loaded: ${list}`);
  assert.ok(total <= PAGE_GZIP_BUDGET_BYTES,
    `the page loads ${kb(total)} gzipped (${total} B), over its ${kb(PAGE_GZIP_BUDGET_BYTES)} budget: ${list}`);
});

test(`a link with engine= loads the full build only, at most ${kb(FULL_GZIP_BUDGET_BYTES)} gzipped`, async () => {
  const { files, total, list } = await payload(server.url + '#model=llama-3.1-70b&engine=vllm');
  console.log(`budget: full build payload ${kb(total)} gzip -9 (${total} B; budget ${kb(FULL_GZIP_BUDGET_BYTES)}): ${list}`);
  for (const name of ['index.html', 'full.js', 'full.wasm']) assert.ok(files.some((f) => f.file === name), `${name} not loaded: ${list}`);
  // The visitor pays for the full build only, not for the lean one too.
  assert.ok(!files.some((f) => f.file.startsWith('index.') && f.file !== 'index.html'), `the lean build was loaded too: ${list}`);
  assert.ok(total <= FULL_GZIP_BUDGET_BYTES,
    `the full build loads ${kb(total)} gzipped (${total} B), over its ${kb(FULL_GZIP_BUDGET_BYTES)} budget: ${list}`);
});

test(`the single-file page is at most ${kb(SINGLE_FILE_GZIP_BUDGET_BYTES)} gzipped`, () => {
  const size = singleFileSize(singleFile);
  console.log(`budget: single-file page ${kb(size.gzipBytes)} gzip -9 (${size.gzipBytes} B, raw ${kb(size.rawBytes)}; ` +
    `budget ${kb(SINGLE_FILE_GZIP_BUDGET_BYTES)})`);
  assert.ok(size.gzipBytes <= SINGLE_FILE_GZIP_BUDGET_BYTES,
    `${singleFile} is ${kb(size.gzipBytes)} gzipped (${size.gzipBytes} B), over its ${kb(SINGLE_FILE_GZIP_BUDGET_BYTES)} budget`);
});

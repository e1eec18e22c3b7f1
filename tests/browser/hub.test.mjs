// Hugging Face look-ups on the page (web/hub.js, web/hub_exports.cpp, imgui_app/hub_panel.cpp) against our
// fake Hub (tests/files/fake_hub.mjs). The browser asks for the real https://huggingface.co/... URLs; each
// context's proxy (startHubProxy) tunnels huggingface.co and the storage host the Hub redirects to
// (https://us.aws.cdn.hf.co) to the fake servers on 127.0.0.1 and refuses every other host, so the page's CSP,
// CORS (preflights included) and the redirects are exercised as in production and no test reaches the
// internet. The proxy is per context, so the file runs in the stage's shared Chromium (run.mjs). The default
// page, and a link with hf=, make no foreign request until the user says yes in the prompt. Bytes read per
// look-up are counted by the fake servers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { waitForApi, waitForIdle, waitForLoopPaused, foreignRequests, shotDir, POLL_MS } from './harness.mjs';
import { itemRect } from './touch_support.mjs';
import { hubWorld, STORAGE, CONSENTED } from './hub_support.mjs';

const world = hubWorld('hub-page');
let server;
let hub;  // the fake Hub the browser's huggingface.co and storage host lead to
before(async () => { await world.start(); ({ server, hub } = world); });
after(() => world.close());

// The look-up is in the page's full build (web/CMakeLists.txt): engine=none (the default) in the link loads
// it; the lean page's field loads it with lookup=ID (tested below).
const fullBuild = (url) => url + (url.includes('#') ? '&' : '#') + 'engine=none';
const openHubPage = (url, options) => world.open(url, options);
const cli = (id) => world.cli(id);

// The label of the item whose label starts with `prefix` (a GGUF row: "file  (size)"), once drawn: read
// from the last frame, and when it is not there, again once the page has settled (waitForIdle: its frames
// drawn, no look-up under way; the first read switches the item hook on and wakes the loop).
async function labelStarting(page, prefix) {
  const read = async () => (await page.evaluate(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['*'])))
    .split(';').find((l) => l.startsWith(prefix));
  let found = await read();
  if (!found) {
    await waitForIdle(page);
    found = await read();
  }
  if (!found) throw new Error(`no item starting with "${prefix}"`);
  return found;
}

// Clicks the item where the settled frame drew it: a look-up's result scrolls the column one frame after it
// shows (soak run 4 of 20 on b69fc87 clicked the greyed "Reading..." button at its place before that scroll).
async function click(page, label, nth = 0) {
  await waitForLoopPaused(page);
  const r = await itemRect(page, label, nth);
  await page.mouse.click(r.cx, r.cy);
}

// Starts a look-up through the JS API (the prompt opens unless a yes is remembered); returns its promise's
// result once it ends, after `answer` ('Allow and look up' / null) is clicked in the prompt.
async function lookUp(page, id, answer = null) {
  await page.evaluate((i) => { window.hubResult = null; window.llmMemory.lookUpHub(i).then((r) => { window.hubResult = r; }); }, id);
  if (answer) await click(page, answer);
  await page.waitForFunction(() => window.hubResult !== null, null, { timeout: 20000, polling: POLL_MS });
  return page.evaluate(() => window.hubResult);
}

test('the default page and a link with hf= make no request to another host; the link shows the prompt, not a request', async () => {
  const { page, context, requests, errors } = await openHubPage(server.url);
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), []);
  await context.close();

  const link = await openHubPage(server.url + '#params=7B&hf=test-org/tiny-llama');
  await itemRect(link.page, 'Allow and look up');  // the prompt is up
  await waitForIdle(link.page);
  assert.deepEqual(foreignRequests(link.requests, server.url), [], 'nothing is sent before the answer');
  await link.page.screenshot({ path: path.join(shotDir, 'hub-consent-link.png') });
  await click(link.page, 'Not now');
  await waitForIdle(link.page);
  assert.deepEqual(foreignRequests(link.requests, server.url), []);
  assert.equal(await link.page.evaluate(() => window.llmMemory.getState()), 'params=7B');
  assert.equal(await link.page.evaluate(() => window.localStorage.getItem('llm-memory:hf-consent')), null);
  assert.deepEqual(errors, []);
  await link.context.close();

  // The prompt on a phone: the whole text and both buttons on screen.
  const phone = await openHubPage(server.url + '#hf=test-org/tiny-llama-GGUF', { phone: true });
  const allow = await itemRect(phone.page, 'Allow and look up');
  assert.ok(allow.y + allow.h <= 844 && allow.x >= 0, JSON.stringify(allow));
  await waitForIdle(phone.page);
  await phone.page.screenshot({ path: path.join(shotDir, 'hub-consent-phone.png') });
  assert.deepEqual(foreignRequests(phone.requests, server.url), []);
  await phone.context.close();
});

test('consent, then a safetensors repo: the CLI\'s figures, the bytes the servers sent, hf= in the link; again from memory', async () => {
  const expected = await cli('test-org/tiny-llama');
  const { page, context, requests, errors } = await openHubPage(fullBuild(server.url));
  await page.evaluate((id) => { window.llmMemory.lookUpHub(id).then((r) => { window.hubResult = r; }); }, 'test-org/tiny-llama');
  await itemRect(page, 'Allow and look up');
  await waitForIdle(page);
  await page.screenshot({ path: path.join(shotDir, 'hub-consent.png') });
  assert.deepEqual(foreignRequests(requests, server.url), []);
  const from = hub.requests.length;
  await click(page, 'Allow and look up');
  await page.waitForFunction(() => window.hubResult, null, { timeout: 20000, polling: POLL_MS });
  const result = await page.evaluate(() => window.hubResult);
  assert.equal(result.applied, true, result.message);
  assert.equal(result.hub.bytes_read, hub.bytesSince(from));
  assert.equal(result.hub.bytes_read, expected.hub.bytes_read);
  assert.equal(result.hub.requests, 7);
  const shown = await page.evaluate(() => window.llmMemory.estimate());
  // The CLI's JSON, field by field ("hub" included: the same requests and bytes).
  assert.deepEqual(shown, expected);
  // The redirect went to the storage host, allowed by the CSP, with Range; only those hosts were asked.
  const foreign = foreignRequests(requests, server.url);
  assert.ok(foreign.some((u) => u.startsWith(`${STORAGE}/xet-bridge-us/test-org/tiny-llama/model-00001-of-00002.safetensors`)));
  assert.deepEqual(foreign.filter((u) => !u.startsWith('https://huggingface.co/') && !u.startsWith(`${STORAGE}/`)), []);
  assert.equal(await page.evaluate(() => window.localStorage.getItem('llm-memory:hf-consent')), 'yes');
  await page.waitForFunction(() => location.hash.includes('hf=test-org/tiny-llama'), null, { polling: POLL_MS });
  // The same id again: answered from this session's memory, nothing sent.
  const before = hub.requests.length;
  const again = await lookUp(page, 'test-org/tiny-llama');
  assert.equal(again.applied, true);
  assert.equal(hub.requests.length, before);
  assert.deepEqual(errors, []);
  const link = await page.evaluate(() => location.href);
  await context.close();

  // The link carries the id, not the data: opened again, it asks (even with the yes remembered).
  const reopened = await openHubPage(link, { initScript: CONSENTED });
  await itemRect(reopened.page, 'Allow and look up');
  await waitForIdle(reopened.page);
  assert.deepEqual(foreignRequests(reopened.requests, server.url), []);
  await reopened.context.close();
});

test('a GGUF repo: the quant picker, then the picked file\'s header only (one 64 KiB range of an 8 MiB file)', async () => {
  for (const phone of [false, true]) {
    const { page, context, errors } = await openHubPage(fullBuild(server.url), { phone, initScript: CONSENTED });
    const list = await lookUp(page, 'test-org/tiny-llama-GGUF');
    assert.equal(list.applied, false);
    assert.deepEqual(list.hub.gguf_files.map((f) => f.file), ['tiny-llama-Q4_K_M.gguf', 'tiny-llama-Q8_0.gguf']);
    await labelStarting(page, 'tiny-llama-Q4_K_M.gguf');
    await waitForIdle(page);
    await page.screenshot({ path: path.join(shotDir, phone ? 'hub-gguf-pick-phone.png' : 'hub-gguf-pick.png') });
    const from = hub.requests.length;
    await page.evaluate(() => { window.hubResult = null; });
    await page.evaluate(() => { window.llmMemory.lookUpHub('test-org/tiny-llama-GGUF:tiny-llama-Q4_K_M.gguf').then((r) => { window.hubResult = r; }); });
    await page.waitForFunction(() => window.hubResult !== null, null, { timeout: 20000, polling: POLL_MS });
    const picked = await page.evaluate(() => window.hubResult);
    assert.equal(picked.applied, true, picked.message);
    const storage = hub.requests.slice(from).filter((q) => q.host === 'storage');
    if (!phone) {
      assert.deepEqual(storage.map((q) => [q.range, q.bytes]), [['bytes=0-65535', 65536]]);
      const expected = await cli('test-org/tiny-llama-GGUF:tiny-llama-Q4_K_M.gguf');
      const shown = await page.evaluate(() => window.llmMemory.estimate());
      assert.equal(shown.parameters, expected.parameters);
      assert.equal(shown.weight_bytes, expected.weight_bytes);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a GGUF quant picked by clicking its row in the Model section', async () => {
  const { page, context, errors } = await openHubPage(fullBuild(server.url), { initScript: CONSENTED });
  await lookUp(page, 'test-org/tiny-llama-GGUF');
  const row = await labelStarting(page, 'tiny-llama-Q4_K_M.gguf');
  await waitForIdle(page);
  await click(page, row);
  await page.waitForFunction(() => location.hash.includes('hf=test-org/tiny-llama-GGUF:tiny-llama-Q4_K_M.gguf'), null, { timeout: 20000, polling: POLL_MS });
  const shown = await page.evaluate(() => window.llmMemory.estimate());
  assert.equal(shown.file.format, 'gguf');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a gated repo: the Hub\'s public totals with the gate named and how to pass it (drop the config file)', async () => {
  for (const phone of [false, true]) {
    const { page, context, errors } = await openHubPage(fullBuild(server.url), { phone, initScript: CONSENTED });
    const from = hub.requests.length;
    const gated = await lookUp(page, 'meta-llama/Llama-3.1-8B');
    assert.equal(gated.applied, true, gated.message);
    assert.equal(hub.requests.length - from, 1, 'the public API only: no file is asked for');
    assert.match(gated.message, /gated model \("manual" approval\)/);
    assert.match(gated.message, /download its config\.json with an account that accepted the conditions and drop it on the page/);
    assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, 8030261248);
    await waitForIdle(page);
    await page.screenshot({ path: path.join(shotDir, phone ? 'hub-gated-phone.png' : 'hub-gated.png') });
    const none = await lookUp(page, 'test-org/gated-no-metadata');
    assert.equal(none.ok, false);
    assert.match(none.message, /it is a gated model \("auto" approval\), and the Hub publishes no parameter totals for it\. To read it, download its config\.json/);
    assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, 8030261248, 'the scenario stays');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('failures name the problem and keep the scenario: 404, timeout, CORS refused, no network, malformed and huge headers', async () => {
  const { page, context, errors } = await openHubPage(fullBuild(server.url + '#params=13B'), {
    initScript: CONSENTED,
  });
  const cases = [
    ['test-org/nope', /^test-org\/nope: no such model on huggingface\.co \(HTTP 401\): check the id$/],
    ['test-org/slow', /^test-org\/slow: the file list: timed out: huggingface\.co did not answer within 0\.5 s$/],
    ['test-org/no-cors', /^test-org\/no-cors: the file list: no answer from huggingface\.co: no network, or the browser refused the answer \(CORS/],
    ['test-org/dropped', /^test-org\/dropped: the file list: no answer from huggingface\.co: no network/],
    ['test-org/bad-header', /^test-org\/bad-header: model\.safetensors: safetensors header: not valid JSON/],
    ['test-org/huge-header', /^test-org\/huge-header: model\.safetensors: its header is 50 MB, more than the 16 MiB this look-up reads of one header$/],
    ['not an id', /^"not an id" is not a model id/],
  ];
  for (const [id, pattern] of cases) {
    // The slow repo answers after 5 s: a 0.5 s timeout for it alone (the page's own is 20 s).
    await page.evaluate((slow) => { if (slow) window.llmMemoryHubTimeoutMs = 500; else delete window.llmMemoryHubTimeoutMs; }, id === 'test-org/slow');
    const r = await lookUp(page, id);
    assert.equal(r.ok, false, id);
    assert.match(r.message, pattern);
    assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=13B', id);
  }
  // The browser logs the refused and failed requests itself; nothing else.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|CORS policy/.test(e)), []);
  await context.close();
});

test('the consent can be withdrawn under the field', async () => {
  const { page, context } = await openHubPage(fullBuild(server.url), { initScript: CONSENTED });
  await lookUp(page, 'test-org/tiny-llama');
  await click(page, 'Withdraw consent');
  await page.waitForFunction(() => window.localStorage.getItem('llm-memory:hf-consent') === null, null, { polling: POLL_MS });
  // The next look-up asks again.
  await page.evaluate(() => { window.llmMemory.lookUpHub('test-org/tiny-llama-GGUF'); });
  await itemRect(page, 'Allow and look up');
  await context.close();
});

test('asked again while a look-up runs (Enter in the field, the JS API, the greyed button): nothing new is sent, the message line says so', async () => {
  const { page, context, errors, requests } = await openHubPage(fullBuild(server.url + '#params=7B'), { initScript: CONSENTED });
  const message = () => page.evaluate(() => Module.ccall('llm_memory_hub_message', 'string', [], []));
  const busy = (id) => `Still reading ${id}: wait for it to finish (nothing new was sent).`;
  await click(page, 'Model: preset, config.json or model file');  // the field is in the Model section
  const field = await itemRect(page, '##hub_ref');
  const from = hub.requests.length;
  // The page gives up on a request after 20 s (web/hub.js TIMEOUT_MS), and on a busy machine this test's steps
  // take longer than that: the held look-up then ended as a timeout and the next one ran (soak run 14 of 20 on
  // 6c88828). The hold is the test's own, so the page's timer is set beyond the test's own time limit.
  await page.evaluate(() => { window.llmMemoryHubTimeoutMs = 3600000; });
  // The fake Hub holds the file list of test-org/held until the test releases it: the look-up stays under way.
  await page.evaluate(() => { window.hubResult = null; window.llmMemory.lookUpHub('test-org/held').then((r) => { window.hubResult = r; }); });
  assert.equal(await hub.whenHeld(), 'test-org/held');
  await page.waitForFunction(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['Reading...']) !== '', null, { polling: POLL_MS });
  // Enter in the canvas's field.
  await page.mouse.click(field.cx, field.cy);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('test-org/tiny-llama');
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => Module.ccall('llm_memory_hub_message', 'string', [], []) === t, busy('test-org/held'), { polling: POLL_MS });
  // The JS API's look-up is refused with the same sentence (it used to wait for, and report, the other one's result).
  assert.deepEqual(await page.evaluate(() => window.llmMemory.lookUpHub('test-org/tiny-llama')),
    { ok: false, applied: false, message: busy('test-org/held'), hub: null });
  assert.equal(hub.requests.length, from, 'nothing reached the Hub but the held request');
  assert.deepEqual(foreignRequests(requests, server.url).filter((u) => u.includes('tiny-llama')), []);
  // Released, the running look-up ends as it would have: its own result, the note gone.
  assert.equal(hub.release('test-org/held'), 1);
  await page.waitForFunction(() => window.hubResult !== null, null, { timeout: 20000, polling: POLL_MS });
  const result = await page.evaluate(() => window.hubResult);
  assert.equal(result.applied, true, result.message);
  assert.match(result.message, /^Hugging Face: test-org\/held /);
  assert.equal(await message(), result.message);
  // The greyed "Reading..." button, pressed during the next look-up, says it too.
  await page.evaluate(() => { window.hubResult = null; window.llmMemory.lookUpHub('test-org/held-too').then((r) => { window.hubResult = r; }); });
  assert.equal(await hub.whenHeld(), 'test-org/held-too');
  await page.waitForFunction(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['Reading...']) !== '', null, { polling: POLL_MS });
  assert.equal(await message(), '');
  await click(page, 'Reading...');
  await page.waitForFunction((t) => Module.ccall('llm_memory_hub_message', 'string', [], []) === t, busy('test-org/held-too'), { polling: POLL_MS });
  assert.equal(hub.release('test-org/held-too'), 1);
  await page.waitForFunction(() => window.hubResult !== null, null, { timeout: 20000, polling: POLL_MS });
  assert.equal((await page.evaluate(() => window.hubResult)).applied, true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lean page\'s field loads the full build, which looks the id up as its own field would', async () => {
  // No yes remembered: the full build opens the prompt, and nothing is sent before the answer.
  const { page, context, requests, errors } = await openHubPage(server.url + '#params=7B');
  assert.equal(await page.evaluate(() => Module._llm_memory_engines_in_build()), 0);
  const entries = await page.evaluate(() => history.length);
  await click(page, 'Model: preset, config.json or model file');  // the field is in the Model section
  const field = await itemRect(page, '##hub_ref');
  await page.mouse.click(field.cx, field.cy);
  await page.keyboard.type('test-org/tiny-llama');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('script[src="full.js"]') && window.Module &&
    Module._llm_memory_engines_in_build && window.llmMemory, null, { timeout: 30000, polling: POLL_MS });
  await waitForApi(page);
  await itemRect(page, 'Allow and look up');
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), [], 'nothing is sent before the answer');
  assert.equal(await page.evaluate(() => history.length), entries);  // replaced, not pushed: Back leaves the page
  await click(page, 'Allow and look up');
  await page.waitForFunction(() => location.hash.includes('hf=test-org/tiny-llama'), null, { timeout: 20000, polling: POLL_MS });
  assert.doesNotMatch(await page.evaluate(() => location.hash), /lookup=/);
  const expected = await cli('test-org/tiny-llama');
  assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, expected.parameters);
  assert.deepEqual(errors, []);
  await context.close();
  // A bad id stays on the lean page, named under the field.
  const lean = await openHubPage(server.url);
  await click(lean.page, 'Model: preset, config.json or model file');
  const box = await itemRect(lean.page, '##hub_ref');
  await lean.page.mouse.click(box.cx, box.cy);
  await lean.page.keyboard.type('not an id');
  await lean.page.keyboard.press('Enter');
  await waitForIdle(lean.page);  // the Enter was handled (a reload would have replaced the page)
  assert.equal(await lean.page.evaluate(() => Module._llm_memory_engines_in_build()), 0);
  assert.doesNotMatch(await lean.page.evaluate(() => location.href), /lookup=/);
  assert.equal(await lean.page.evaluate(() => document.querySelectorAll('script[src="full.js"]').length), 0);
  assert.deepEqual(foreignRequests(lean.requests, server.url), []);
  await lean.context.close();
});

// The text view's "Look up on Hugging Face" (site/shell.html's #tv-hub, web/hub.js, web/api.js) against our fake
// Hub (tests/files/fake_hub.mjs), routed as in hub.test.mjs: each context's proxy tunnels https://huggingface.co
// and the storage host to the fake servers and refuses every other host, so the CSP, CORS and redirects are as in
// production and no test reaches the internet. The text view asks in its own prompt before the first request
// (what is sent, to which host), remembers the answer in localStorage, lets it be withdrawn, and announces the
// progress, the result and each problem in a live region; the look-up is the canvas field's (the same figures as
// the CLI), on the full build and from the lean page (which loads the full build), on a desktop and on a phone
// (where the text view hides the canvas, which then draws no frame).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { waitForApi, waitForIdle, foreignRequests, shotDir, POLL_MS } from './harness.mjs';
import { hubWorld, CONSENTED } from './hub_support.mjs';

const world = hubWorld('hub-tv');
let server;
let hub;  // the fake Hub the browser's huggingface.co and storage host lead to
before(async () => { await world.start(); ({ server, hub } = world); });
after(() => world.close());

// A page with the text view's look-up field in place.
async function openPage(url, options) {
  const opened = await world.open(url, options);
  await opened.page.locator('#tv-hub-ref').waitFor();
  return opened;
}
const cli = (id) => world.cli(id);

const out = (page) => page.locator('#tv-hub-out').textContent();
// Types `id` into the text view's field and presses Enter, as a keyboard user does.
async function typeId(page, id) {
  await page.locator('#tv-hub-ref').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(id);
  await page.keyboard.press('Enter');
}
// The live region once the look-up has ended (it said "Reading ... from huggingface.co..." meanwhile).
async function outcome(page) {
  await page.waitForFunction(() => { const t = document.getElementById('tv-hub-out').textContent; return t && !t.startsWith('Reading '); },
    null, { timeout: 20000, polling: POLL_MS });
  return { text: await out(page), error: (await page.locator('#tv-hub-out').getAttribute('class')) === 'tv-err' };
}

test('the text view asks before the first request, says what is sent, remembers the yes, and looks up as the canvas does', async () => {
  const expected = await cli('test-org/tiny-llama');
  const { page, context, requests, errors } = await openPage(server.url + '#params=7B&view=text&engine=none');
  assert.equal(await page.locator('#tv-hub-out').getAttribute('role'), 'status');
  assert.match(await page.locator('#tv-hub-note').textContent(), /^Looking up sends the model id to huggingface\.co; you are asked first/);
  // A bad id is named at once, and nothing is asked.
  await typeId(page, 'not an id');
  assert.match(await out(page), /^"not an id" is not a model id/);
  assert.equal(await page.locator('#tv-hub-ask').isVisible(), false);
  await typeId(page, 'test-org/tiny-llama');
  await page.locator('#tv-hub-ask').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tv-hub-allow');
  assert.equal(await page.locator('#tv-hub-allow').getAttribute('aria-describedby'), 'tv-hub-ask-text');
  assert.match(await page.locator('#tv-hub-ask-text').textContent(),
    /^To read it, this page sends the model id "test-org\/tiny-llama" to huggingface\.co and reads .*\n\nNothing else is sent: not your scenario, no cookies, no referrer\. Until you allow it, the page sends nothing anywhere\./s);
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), [], 'nothing is sent before the answer');
  await page.screenshot({ path: path.join(shotDir, 'hub-text-view-consent.png') });
  await page.keyboard.press('Enter');  // on "Allow and look up"
  const done = await outcome(page);
  assert.equal(done.error, false, done.text);
  assert.match(done.text, /^Hugging Face: test-org\/tiny-llama \(commit 0123456789ab\)\nRead: safetensors headers; 7 requests, /);
  assert.deepEqual(await page.evaluate(() => window.llmMemory.estimate()), expected);
  assert.equal(await page.evaluate(() => window.localStorage.getItem('llm-memory:hf-consent')), 'yes');
  assert.match(await page.locator('#tv-hub-note').textContent(), /^Allowed: Look up sends the model id to huggingface\.co\.$/);
  assert.equal(await page.locator('#tv-hub-withdraw').isVisible(), true);
  // The yes is remembered: a GGUF repo goes ahead without asking, offers its quants, and the picked one is read.
  await typeId(page, 'test-org/tiny-llama-GGUF');
  const list = await outcome(page);
  assert.equal(await page.locator('#tv-hub-ask').isVisible(), false);
  assert.match(list.text, /^test-org\/tiny-llama-GGUF has 2 GGUF files: pick the quant to read/);
  assert.deepEqual(await page.locator('#tv-hub-files button').allTextContents(), ['tiny-llama-Q4_K_M.gguf', 'tiny-llama-Q8_0.gguf']);
  await page.locator('#tv-hub-files button').first().click();
  const picked = await outcome(page);
  assert.equal(picked.error, false, picked.text);
  const gguf = await cli('test-org/tiny-llama-GGUF:tiny-llama-Q4_K_M.gguf');
  assert.equal((await page.evaluate(() => window.llmMemory.estimate())).weight_bytes, gguf.weight_bytes);
  await page.waitForFunction(() => location.hash.includes('hf=test-org/tiny-llama-GGUF:tiny-llama-Q4_K_M.gguf'), null, { timeout: 5000, polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 404, a gated repo and the other failures are announced; the scenario stays (desktop and phone)', async () => {
  for (const phone of [false, true]) {
    const { page, context, errors } = await openPage(server.url + '#params=13B&view=text&engine=none', { phone, initScript: CONSENTED });
    const cases = [
      ['test-org/nope', /^test-org\/nope: no such model on huggingface\.co \(HTTP 401\): check the id$/],
      ['test-org/no-cors', /^test-org\/no-cors: the file list: no answer from huggingface\.co: no network, or the browser refused the answer \(CORS/],
      ['test-org/bad-header', /^test-org\/bad-header: model\.safetensors: safetensors header: not valid JSON/],
    ];
    for (const [id, pattern] of cases) {
      await typeId(page, id);
      const r = await outcome(page);
      assert.equal(r.error, true, id);
      assert.match(r.text, pattern);
      assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=13B', id);
    }
    // Gated with the Hub's public totals: applied, the gate named and how to pass it.
    await typeId(page, 'meta-llama/Llama-3.1-8B');
    const gated = await outcome(page);
    assert.equal(gated.error, false, gated.text);
    assert.match(gated.text, /gated model \("manual" approval\)/);
    assert.match(gated.text, /download its config\.json with an account that accepted the conditions and drop it on the page/);
    assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, 8030261248);
    await waitForIdle(page);
    await page.locator('#tv-hub').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shotDir, phone ? 'hub-text-view-gated-phone.png' : 'hub-text-view-gated.png') });
    // Gated without totals: the problem, and the scenario stays.
    await typeId(page, 'test-org/gated-no-metadata');
    const none = await outcome(page);
    assert.equal(none.error, true);
    assert.match(none.text, /it is a gated model \("auto" approval\), and the Hub publishes no parameter totals for it/);
    assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, 8030261248, 'the scenario stays');
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|CORS policy/.test(e)), []);
    await context.close();
  }
});

test('a second Look up while one runs sends nothing and says so in the live region; the running one ends untouched', async () => {
  const { page, context, errors, requests } = await openPage(server.url + '#params=7B&view=text&engine=none', { initScript: CONSENTED });
  const status = () => page.evaluate(() => { const o = document.getElementById('tv-hub-out'); return { text: o.textContent, error: o.className === 'tv-err' }; });
  const busy = 'Still reading test-org/held: wait for it to finish (nothing new was sent).';
  const from = hub.requests.length;
  // The fake Hub holds the file list of test-org/held until the test releases it: the look-up stays under way.
  await typeId(page, 'test-org/held');
  assert.equal(await hub.whenHeld(), 'test-org/held');
  assert.deepEqual(await status(), { text: 'Reading test-org/held from huggingface.co...', error: false });
  // Enter in the field, then the button, with another id: the region says what runs; nothing is sent.
  await typeId(page, 'test-org/tiny-llama');
  await page.waitForFunction((t) => document.getElementById('tv-hub-out').textContent === t, busy, { polling: POLL_MS });
  assert.deepEqual(await status(), { text: busy, error: false });
  await page.evaluate(() => { document.getElementById('tv-hub-out').textContent = ''; });
  await page.locator('#tv-hub-go').click();
  await page.waitForFunction((t) => document.getElementById('tv-hub-out').textContent === t, busy, { polling: POLL_MS });
  assert.equal(await page.locator('#tv-hub-ask').isVisible(), false, 'no prompt either');
  // The canvas's message line says the same.
  assert.equal(await page.evaluate(() => Module.ccall('llm_memory_hub_message', 'string', [], [])), busy);
  assert.equal(hub.requests.length, from, 'nothing reached the Hub but the held request');
  assert.deepEqual(foreignRequests(requests, server.url).filter((u) => u.includes('tiny-llama')), []);
  // Released, the running look-up ends with its own result.
  assert.equal(hub.release('test-org/held'), 1);
  await page.waitForFunction(() => document.getElementById('tv-hub-out').textContent.startsWith('Hugging Face: '), null,
    { timeout: 20000, polling: POLL_MS });
  const done = await status();
  assert.equal(done.error, false, done.text);
  assert.match(done.text, /^Hugging Face: test-org\/held /);
  assert.equal(hub.release('test-org/held'), 0, 'no second look-up of it was started');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the consent is withdrawn in the text view; "Not now" sends nothing', async () => {
  const { page, context, requests } = await openPage(server.url + '#params=7B&view=text&engine=none', { initScript: CONSENTED });
  assert.match(await page.locator('#tv-hub-note').textContent(), /^Allowed:/);
  await page.locator('#tv-hub-withdraw').click();
  assert.equal(await page.evaluate(() => window.localStorage.getItem('llm-memory:hf-consent')), null);
  assert.match(await out(page), /^Consent withdrawn/);
  assert.equal(await page.locator('#tv-hub-withdraw').isVisible(), false);
  assert.match(await page.locator('#tv-hub-note').textContent(), /you are asked first/);
  await typeId(page, 'test-org/tiny-llama');
  await page.locator('#tv-hub-ask').waitFor();
  await page.locator('#tv-hub-decline').click();
  assert.equal(await out(page), 'Nothing was sent.');
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), []);
  assert.equal(await page.evaluate(() => window.llmMemory.getState()), 'params=7B');
  assert.equal(await page.evaluate(() => window.localStorage.getItem('llm-memory:hf-consent')), null);
  // The canvas's field knows too: the JS API's look-up (its path) opens its prompt instead of sending.
  await page.evaluate(() => { window.llmMemory.lookUpHub('test-org/tiny-llama'); });
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), []);
  await context.close();
});

test('the lean page\'s text view loads the full build, which asks in the text view (on a phone)', async () => {
  const { page, context, requests, errors } = await openPage(server.url + '#params=7B&view=text', { phone: true });
  assert.equal(await page.evaluate(() => Module._llm_memory_engines_in_build()), 0);
  assert.match(await page.locator('#tv-hub-note').textContent(), /^Looking up loads the page's full build/);
  await typeId(page, 'test-org/tiny-llama');
  await page.waitForFunction(() => document.querySelector('script[src="full.js"]') && window.Module &&
    Module._llm_memory_engines_in_build && window.llmMemory, null, { timeout: 30000, polling: POLL_MS });
  await waitForApi(page);
  await page.locator('#tv-hub-ask').waitFor();
  assert.equal(await page.locator('#tv-hub-ref').inputValue(), 'test-org/tiny-llama');
  await waitForIdle(page);
  assert.deepEqual(foreignRequests(requests, server.url), [], 'nothing is sent before the answer');
  await page.screenshot({ path: path.join(shotDir, 'hub-text-view-consent-phone.png') });
  await page.locator('#tv-hub-allow').click();
  const done = await outcome(page);
  assert.equal(done.error, false, done.text);
  await page.waitForFunction(() => location.hash.includes('hf=test-org/tiny-llama') && location.hash.includes('view=text'), null, { timeout: 5000, polling: POLL_MS });
  assert.doesNotMatch(await page.evaluate(() => location.hash), /lookup=/);
  const expected = await cli('test-org/tiny-llama');
  assert.equal((await page.evaluate(() => window.llmMemory.estimate())).parameters, expected.parameters);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link with hf= and view=text asks in the text view, even with a yes remembered, and sends nothing first', async () => {
  const { page, context, requests, errors } = await openPage(server.url + '#params=7B&view=text&hf=test-org/tiny-llama', { initScript: CONSENTED });
  await page.locator('#tv-hub-ask').waitFor();
  assert.match(await page.locator('#tv-hub-ask-text').textContent(), /^This link asks to look up test-org\/tiny-llama on Hugging Face\.\n\nTo read it, this page sends the model id "test-org\/tiny-llama"/);
  await waitForIdle(page);
  // One prompt: the canvas's own stays closed.
  const labels = await page.evaluate(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['*']));
  assert.doesNotMatch(labels, /Allow and look up/);
  assert.deepEqual(foreignRequests(requests, server.url), [], 'a link never sends by itself');
  await page.locator('#tv-hub-allow').click();
  const done = await outcome(page);
  assert.equal(done.error, false, done.text);
  assert.match(done.text, /^Hugging Face: test-org\/tiny-llama/);
  assert.deepEqual(errors, []);
  await context.close();
});

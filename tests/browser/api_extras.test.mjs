// JS API extras wired by the web driver: checkAnswer (practice) returns the same JSON as
// `llm-memory check`, and a config.json dropped on the page reaches the model picker.
// Figures: the seed (7B at 2 bytes, overhead 1.2: 14 GB weights, 16.8 GB inference).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, cliPath, repoRoot, POLL_MS } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

function cliCheck(question, state, answer) {
  const run = spawnSync(cliPath, ['check', '--question', question, '--state', state, '--answer', answer, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('checkAnswer equals `llm-memory check` and names the mistake', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const cases = [['inference', 'params=7B', '14 GB'], ['inference', 'params=7B', '16.8 GB'], ['weight', 'params=13B', '24.21 GiB'],
    ['gradient-optimizer', 'params=13B&trainable=1B', '2 GB']];
  for (const [question, state, answer] of cases) {
    const fromPage = await page.evaluate((a) => window.llmMemory.checkAnswer(a[0], a[1], a[2]), [question, state, answer]);
    assert.deepEqual(fromPage, cliCheck(question, state, answer), `${question} ${state} ${answer}`);
  }
  const wrong = await page.evaluate(() => window.llmMemory.checkAnswer('inference', 'params=7B', '14 GB'));
  assert.equal(wrong.correct, false);
  assert.equal(wrong.mistake, 'weights-as-inference');
  assert.equal(wrong.expected_bytes, 16800000000);
  const right = await page.evaluate(() => window.llmMemory.checkAnswer('inference', 'params=7B', '16.8 GB'));
  assert.equal(right.correct, true);
  const bad = await page.evaluate(() => window.llmMemory.checkAnswer('nonsense', 'params=7B', '1 GB'));
  assert.ok(typeof bad.error === 'string' && bad.error.length > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

// The page's part of a drop: the browser must not open the file, the text goes to
// llm_memory_load_config (1 = core read it), the loop wakes. (What the model panel then shows is
// tested with the model panel.) A file that is not a config is reported in the bar.
test('a config.json dropped on the page is handed to the model picker', async () => {
  const config = fs.readFileSync(path.join(repoRoot, 'tests/fixtures/configs/llama-2-7b.json'), 'utf8');
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const drop = (text, name) => page.evaluate(([t, n]) => {
    const data = new DataTransfer();
    data.items.add(new File([t], n, { type: 'application/json' }));
    const event = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
    document.getElementById('canvas').dispatchEvent(event);
    return event.defaultPrevented;
  }, [text, name]);
  const framesBefore = await page.evaluate(() => window.llmMemory.frameCount());
  assert.equal(await drop(config, 'config.json'), true, 'the drop was not handled (the browser would open the file)');
  await page.waitForFunction(() => document.getElementById('status').textContent !== '', null, { timeout: 5000, polling: POLL_MS });
  assert.equal(await page.locator('#status').textContent(), 'Read config.json.');
  await page.waitForFunction((n) => window.llmMemory.frameCount() > n, framesBefore, { timeout: 5000, polling: POLL_MS });
  assert.equal(await drop('{"model_type": 7', 'broken.json'), true);
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Could not read broken.json'), null, { timeout: 5000, polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

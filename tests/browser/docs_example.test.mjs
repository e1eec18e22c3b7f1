// The documentation writers' worked example (site/mkdocs-example/): a real `mkdocs build` of a page that
// embeds the app served from the same site (docs/llm-memory/ = the page's files) and drives it from the
// host page's script through window.llmMemory. Figures: seed document (13B: 31.2 GB inference, 1B
// trainable: 32 GB training; 7B: 16.8 GB and 56 GB) and 70B at 4 bits = 35 GB weights, 42 GB inference,
// 35 + 70B x 3 x 2 = 455 GB training.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serveSite, openPage, foreignRequests, siteDir, repoRoot, shotDir, POLL_MS } from './harness.mjs';

let browser;
let server;
let work;
before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-memory-mkdocs-'));
  fs.cpSync(path.join(repoRoot, 'site/mkdocs-example'), work, { recursive: true });
  // What the guide tells a writer to do: copy the page's files into docs/llm-memory/.
  fs.cpSync(siteDir, path.join(work, 'docs/llm-memory'), { recursive: true });
  execFileSync('mkdocs', ['build', '--quiet', '--strict', '-f', path.join(work, 'mkdocs.yml'), '-d', path.join(work, 'out')]);
  server = await serveSite(path.join(work, 'out'));
  browser = await launch();
  fs.mkdirSync(shotDir, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the MkDocs example embeds the app and drives it from the page script', async () => {
  const { page, errors, requests, context } = await openPage(browser, server.url, { width: 1280, height: 900 }, { colorScheme: 'light' });
  const sentence = page.locator('#llm-memory-sentence');
  // The page script writes the sentence once the embed's API is ready, from the embed's estimate().
  await page.waitForFunction(() => document.getElementById('llm-memory-sentence').textContent !== '', null, { timeout: 30000, polling: POLL_MS });
  assert.equal(await sentence.textContent(), 'params=13B&trainable=1B: inference 31.2 GB, training 32 GB.');
  const frame = await (await page.waitForSelector('#llm-memory-estimate')).contentFrame();
  assert.match(await frame.evaluate(() => location.hash), /embed=1/);
  assert.equal(await frame.locator('#bar').isVisible(), false, 'embed mode hides the full page bar');

  await page.getByRole('button', { name: '70B in int4' }).click();
  assert.equal(await sentence.textContent(), 'params=70B&dtype=int4: inference 42 GB, training 455 GB.');
  assert.equal(await frame.evaluate(() => window.llmMemory.getState()), 'params=70B&dtype=int4');
  await frame.waitForFunction(() => /^Weight memory 35 GB/.test(document.getElementById('results-summary').textContent), null, { polling: POLL_MS });

  await page.getByRole('button', { name: '7B, all trainable' }).click();
  assert.equal(await sentence.textContent(), 'params=7B: inference 16.8 GB, training 56 GB.');
  await frame.waitForFunction(() => /Training total 56 GB/.test(document.getElementById('results-summary').textContent), null, { polling: POLL_MS });

  await page.getByRole('button', { name: '13B, 1B trainable' }).click();
  assert.equal(await sentence.textContent(), 'params=13B&trainable=1B: inference 31.2 GB, training 32 GB.');
  await page.screenshot({ path: path.join(shotDir, 'docs-example-mkdocs.png') });
  assert.deepEqual(foreignRequests(requests, server.url.replace(/\/$/, '')), [], 'the docs page and the embed load only their own files');
  assert.deepEqual(errors, []);  // console errors of the docs page and of the embed
  await context.close();
});

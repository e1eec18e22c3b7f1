// axe-core on the page: no serious or critical violation on the full page, the text view, the Practice tab
// and the embed, in the dark and the light scheme (12 pages; its own file so that it runs beside a11y.test.mjs).
// Each page's full result is written to build/screenshots/axe-NAME.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openReady, waitForIdle, repoRoot, shotDir } from './harness.mjs';

const AXE = fs.readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

let browser;
let server;
const open = (url, viewport, options) => openReady(browser, url, viewport, options);
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

// axe-core in the page (evaluated over CDP, so the page's CSP does not apply); returns serious/critical ones.
async function axe(frame, name) {
  await frame.evaluate(AXE);
  const result = await frame.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const summary = result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  fs.writeFileSync(path.join(shotDir, `axe-${name}.json`), JSON.stringify({ url: result.url, violations: summary }, null, 2));
  return summary.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('axe-core: no serious or critical violation on the full page, the text view, the Practice tab and the embed', async () => {
  const checks = [
    ['full-page', server.url + '#params=70B'],
    ['text-view', server.url + '#params=13B&trainable=1B&view=text'],
    ['practice', server.url + '#practice=seed-7b'],
    ['practice-text-view', server.url + '#practice=seed-7b&view=text'],
    ['embed', server.url + '#params=70B&embed=1'],
    ['embed-text-view', server.url + '#params=70B&embed=1&view=text'],
  ];
  for (const [name, url] of checks) {
    for (const colorScheme of ['dark', 'light']) {
      const { page, errors, context } = await open(url, name.startsWith('embed') ? { width: 700, height: 420 } : { width: 1280, height: 800 }, { colorScheme });
      await waitForIdle(page);
      assert.deepEqual(await axe(page, `${name}-${colorScheme}`), [], `${name} (${colorScheme})`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

// The HTML bar under the app ("Copy link", "Copy embed code", the status line) stays whole on phones:
// at 390x844 (and 320 px) every control lies inside the 36 px bar and inside the viewport, also with the
// longest status the page writes (a dropped file's name can be any length). Screenshots in build/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, waitForIdle, shotDir } from './harness.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const LONG_STATUS = 'Could not read llama-3.1-70b-instruct-with-a-long-name.config.json (see the model panel).';

for (const [width, height, scale] of [[390, 844, 3], [320, 640, 2], [1280, 800, 1]]) {
  test(`the bar is not clipped at ${width}x${height}`, async () => {
    const { page, errors, context } = await openPage(browser, server.url + '#params=13B', { width, height }, { deviceScaleFactor: scale });
    await waitForApi(page);
    await waitForIdle(page);
    for (const status of ['', 'Embed code copied.', LONG_STATUS]) {
      await page.evaluate((s) => { document.getElementById('status').textContent = s; }, status);
      const boxes = await page.evaluate(() => {
        const box = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, top: b.top, right: b.right, bottom: b.bottom }; };
        const bar = document.getElementById('bar');
        return {
          bar: box(bar),
          items: ['copy-link', 'copy-embed', 'status'].map((id) => ({ id, ...box(document.getElementById(id)) })),
          // A button whose label wrapped is taller than one line of its text.
          wrapped: [...bar.querySelectorAll('button')].filter((b) => b.scrollHeight > b.clientHeight + 1 ||
            b.getBoundingClientRect().height > parseFloat(getComputedStyle(b).lineHeight || '0') * 1.5 + 10).map((b) => b.id),
          viewport: { width: innerWidth, height: innerHeight },
        };
      });
      assert.ok(Math.abs(boxes.bar.bottom - boxes.viewport.height) < 1 && boxes.bar.right <= boxes.viewport.width + 0.5,
        `bar ${JSON.stringify(boxes.bar)}`);
      for (const item of boxes.items) {
        const inside = item.top >= boxes.bar.top - 0.5 && item.bottom <= boxes.bar.bottom + 0.5 &&
          item.left >= 0 && item.right <= boxes.viewport.width + 0.5;
        assert.ok(inside, `${item.id} outside the bar with status "${status}": ${JSON.stringify(item)} vs ${JSON.stringify(boxes.bar)}`);
      }
      assert.deepEqual(boxes.wrapped, [], `button labels wrapped with status "${status}"`);
    }
    fs.mkdirSync(shotDir, { recursive: true });
    await page.screenshot({ path: path.join(shotDir, `web-bar-${width}x${height}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// Touch helpers shared by the phone tests: a phone context (390x844, isMobile, hasTouch), item rects from
// the page's test hook (ImGui item labels, CSS px), and swipes/drags through CDP Input.dispatchTouchEvent.
import { waitForApp, waitForIdle, watchErrors } from './harness.mjs';

export async function openPhone(browser, url, { dpr = 3, width = 390, height = 844, app = true } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr, hasTouch: true, isMobile: true, colorScheme: 'dark' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  if (app) {
    await waitForApp(page);
    await waitForIdle(page);
  }
  const cdp = await context.newCDPSession(page);
  return { context, page, errors, cdp };
}

// The last frame's rect of the ImGui item labelled `label` (the whole label or its text before "##"; the
// nth such item), {x, y, w, h, cx, cy} in CSS px of the frame (page or iframe). The hook records items only
// after its first call, which wakes the loop: when the last frame has no such item, the page's frames are
// awaited (waitForIdle: the loop paused itself, so the last frame is the settled one) and it is read again.
export async function itemRect(frame, label, nth = 0) {
  const read = () => frame.evaluate((l) => Module.ccall('llm_memory_item_rect', 'string', ['string'], [l]), label);
  let text = await read();
  if (!text) {
    await waitForIdle(frame);
    text = await read();
  }
  if (!text) throw new Error(`no item "${label}" in the last frame; items: ${await frame.evaluate(() => Module.ccall('llm_memory_item_rect', 'string', ['string'], ['*']))}`);
  const rects = text.split(';').filter(Boolean);
  if (nth >= rects.length) throw new Error(`only ${rects.length} items "${label}"`);
  const [x, y, w, h] = rects[nth].split(',').map(Number);
  return { x, y, w, h, cx: x + w / 2, cy: y + h / 2 };
}

// One finger from (x0, y0) to (x1, y1) in `steps` moves, then lifted (CDP touch events: trusted).
export async function swipe(cdp, x0, y0, x1, y1, steps = 10) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0, id: 1 }] });
  for (let i = 1; i <= steps; i++) {
    const x = x0 + ((x1 - x0) * i) / steps;
    const y = y0 + ((y1 - y0) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y, id: 1 }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

// Resolves once the page drew frames and went idle again.
export async function settle(frame) {
  await waitForIdle(frame);
}

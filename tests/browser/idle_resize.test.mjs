// Idle at zero cost and canvas sizing: no frames without input (at most 2
// in 5 s), drawing resumes on input and stops while the tab is hidden; the canvas backbuffer is its CSS
// box x devicePixelRatio at DPR 1 and 2 and follows window resizes and DPR changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, openPage, waitForApi, waitForIdle, waitForSuspended, frameCount, canvasInk, shotDir, POLL_MS } from './harness.mjs';
import { itemRect } from './touch_support.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

// { width, height } of the canvas backbuffer and round(CSS box x DPR).
async function canvasSizes(page) {
  return page.evaluate(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return { width: c.width, height: c.height, expectedWidth: Math.round(r.width * devicePixelRatio),
             expectedHeight: Math.round(r.height * devicePixelRatio), dpr: devicePixelRatio };
  });
}

async function waitForCanvasMatch(page) {
  await page.waitForFunction(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return c.width === Math.round(r.width * devicePixelRatio) &&
      Math.abs(c.height - Math.round(r.height * devicePixelRatio)) <= 1;  // 1 px: GLFW's fullscreen guard
  }, null, { timeout: 10000, polling: POLL_MS });
}

test('idle: at most 2 frames in 5 s without input; input resumes drawing, then it stops again', async () => {
  const { page, errors, context } = await openPage(browser, server.url + '#params=70B');
  await waitForApi(page);
  await waitForIdle(page);
  const start = await frameCount(page);
  await page.waitForTimeout(5000);
  const idleFrames = (await frameCount(page)) - start;
  assert.ok(idleFrames <= 2, `${idleFrames} frames drawn in 5 s without input`);
  // Pointer input wakes the loop.
  await page.mouse.move(300, 300);
  await page.mouse.move(320, 310);
  await page.waitForFunction((n) => window.llmMemory.frameCount() > n, start + idleFrames, { timeout: 5000, polling: POLL_MS });
  // A change through the API wakes it too (idle() turns false within the call), and it pauses again
  // afterwards: once idle() is true, no frame comes and idle() stays true.
  const before = await waitForIdle(page);
  assert.equal(await page.evaluate(() => { window.llmMemory.setState('params=7B'); return window.llmMemory.idle(); }), false);
  await page.waitForFunction((n) => window.llmMemory.frameCount() > n, before, { timeout: 5000, polling: POLL_MS });
  const settled = await waitForIdle(page);
  await page.waitForTimeout(1500);
  assert.equal(await frameCount(page), settled, 'frames kept coming after the change');
  assert.equal(await page.evaluate(() => window.llmMemory.idle()), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('no frames while the tab is hidden; drawing resumes when it is shown', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  const idle = await waitForIdle(page);
  // Headless tabs are always visible: fake the hidden state and send the event the page listens to.
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.evaluate(() => window.llmMemory.setState('params=30B'));
  await page.mouse.move(200, 200);
  await page.mouse.move(260, 240);
  await page.waitForTimeout(800);
  assert.equal(await frameCount(page), idle, 'frames were drawn while hidden');
  // The summary does not wait for a frame.
  assert.match(await page.locator('#results-summary').textContent(), /^Weight memory 60 GB/);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForFunction((n) => window.llmMemory.frameCount() > n, idle, { timeout: 5000, polling: POLL_MS });
  assert.deepEqual(errors, []);
  await context.close();
});

// A busy browser serves animation frames late (2 a second in the browser stage), and ImGui takes a key's
// press, its character and its release in separate frames: a typed id and its Enter once needed 20 frames,
// 10 s, to land (hub.test.mjs, the lean page's Hugging Face field). One animation frame (web/main_web.cpp
// tick) now takes the whole queue. Here the keys wait while drawing is suspended, as in a hidden tab, and
// then one frame is drawn.
test('typed text and its Enter are taken in one animation frame, whatever the pace the browser serves frames at', async () => {
  const { page, errors, context } = await openPage(browser, server.url);
  await waitForApi(page);
  await waitForIdle(page);
  const field = await itemRect(page, '##value', 0);  // Parameters (N)
  await page.mouse.click(field.cx, field.cy);
  await waitForIdle(page);
  await page.evaluate(() => Module._llm_memory_set_visible(0));
  await waitForSuspended(page);
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type('70B');
  await page.keyboard.press('Enter');
  const frame = await page.evaluate(() => {
    const report = () => Module.ccall('llm_memory_idle_report', 'string', [], []).split('\n');
    const before = { queued: Number(report()[3]), drawn: window.llmMemory.frameCount() };
    Module._llm_memory_set_visible(1);  // wakes the loop, whose next animation frame comes after this task
    Module._llm_memory_frame_now();     // the tick that animation frame would run, now
    return { before, drawn: window.llmMemory.frameCount() - before.drawn, left: Number(report()[3]), active: report()[4],
             state: window.llmMemory.getState(), summary: document.getElementById('results-summary').textContent };
  });
  assert.ok(frame.before.queued >= 12, `the keys waited in ImGui's queue (${frame.before.queued} events)`);
  assert.equal(frame.left, 0, 'every queued event was taken');
  assert.equal(frame.drawn, 1, 'in one frame drawn to the canvas');
  assert.equal(frame.state, 'params=70B', 'the typed value was applied');
  assert.equal(frame.active, '0', 'the Enter was taken: the field is no longer being edited');
  // ...and published by that frame, though passes after the one that took the B changed nothing: the
  // summary at once, the address with its (throttled) write. The page once kept "params=70" there.
  assert.match(frame.summary, /^Weight memory 140 GB/);
  await waitForIdle(page);
  assert.equal(await page.evaluate(() => location.hash), '#params=70B');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const dpr of [1, 2]) {
  test(`canvas backbuffer = CSS box x DPR at deviceScaleFactor ${dpr}, following resizes`, async () => {
    const { page, errors, context } = await openPage(browser, server.url + '#params=13B&trainable=1B',
      { width: 1100, height: 720 }, { deviceScaleFactor: dpr });
    await waitForApi(page);
    await waitForCanvasMatch(page);
    let sizes = await canvasSizes(page);
    assert.equal(sizes.dpr, dpr);
    assert.equal(sizes.width, 1100 * dpr);
    assert.equal(sizes.width, sizes.expectedWidth);
    await waitForIdle(page);
    assert.ok(await canvasInk(page) > 0.01, 'blank canvas');
    await page.screenshot({ path: path.join(shotDir, `web-dpr${dpr}.png`) });
    // A window resize while paused: the ResizeObserver wakes the loop and the backbuffer follows.
    await page.setViewportSize({ width: 760, height: 540 });
    await waitForCanvasMatch(page);
    sizes = await canvasSizes(page);
    assert.equal(sizes.width, 760 * dpr);
    assert.equal(sizes.width, sizes.expectedWidth);
    await waitForIdle(page);
    assert.ok(await canvasInk(page) > 0.01, 'blank canvas after resize');
    await page.screenshot({ path: path.join(shotDir, `web-dpr${dpr}-760x540.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a DPR change at run time rebuilds the backbuffer (and the font) at the new scale', async () => {
  const { page, errors, context } = await openPage(browser, server.url, { width: 900, height: 600 });
  await waitForApi(page);
  await waitForCanvasMatch(page);
  assert.equal((await canvasSizes(page)).width, 900);
  await waitForIdle(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 900, height: 600, deviceScaleFactor: 2, mobile: false });
  await page.waitForFunction(() => devicePixelRatio === 2, null, { polling: POLL_MS });
  // CDP's emulated DPR change fires neither the media query nor resize events that a real zoom or a
  // move to another monitor fires, so send the resize event the page listens for.
  await page.evaluate(() => window.dispatchEvent(new Event('resize')));
  await waitForCanvasMatch(page);
  assert.equal((await canvasSizes(page)).width, 1800);
  await waitForIdle(page);
  assert.ok(await canvasInk(page) > 0.01, 'blank canvas after the DPR change');
  await page.screenshot({ path: path.join(shotDir, 'web-dpr-change.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

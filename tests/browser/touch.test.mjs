// Phones: touch fed into ImGui as a touch screen (web/api.js, "touch"). On a 390x844 phone (isMobile,
// hasTouch, DPR 3 and 2): a tap is one click where the finger is (the Emscripten 3.1.6 GLFW pressed at the
// previous position, so each tap opened what the previous one touched), a sideways drag moves a slider, a
// vertical swipe scrolls the panel under the finger (not the page, not the slider it starts on), a tap on a
// text field focuses a real <input> (the phone keyboard) whose text changes the figure, a long press shows
// the help without clicking, and an embed leaves swipes to its host page until it is tapped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveSite, waitForApi, waitForIdle, frameCount, shotDir, POLL_MS } from './harness.mjs';
import { openPhone, itemRect, swipe, settle } from './touch_support.mjs';

let browser;
let server;
before(async () => { server = await serveSite(); browser = await launch(); fs.mkdirSync(shotDir, { recursive: true }); });
after(async () => { await browser?.close(); await server?.close(); });

const state = (page) => page.evaluate(() => window.llmMemory.getState());
// waitForFunction whose timeout names what was awaited and what the page showed instead.
async function until(page, fn, arg, what) {
  try {
    await page.waitForFunction(fn, arg, { timeout: 15000, polling: POLL_MS });
  } catch (e) {
    const seen = await page.evaluate(() => ({ focus: document.activeElement && document.activeElement.id,
      entry: document.getElementById('text-entry').value, state: window.llmMemory.getState(), frames: window.llmMemory.frameCount(),
      hovered: Module.ccall('llm_memory_hovered_text', 'string', [], []) }));
    throw new Error(`${what}: ${JSON.stringify(seen)}`);
  }
}
const summary = (page) => page.locator('#results-summary').textContent();
const mouseValid = (page) => page.evaluate(() => Module._llm_memory_mouse_valid());
const tooltipShown = (page) => page.evaluate(() => Module._llm_memory_tooltip_shown());

// Counts the mouse events the browser would add after a touch (compatibility events): there must be none.
async function countMouseEvents(page) {
  await page.evaluate(() => {
    window.mouseEvents = 0;
    for (const type of ['mousedown', 'mouseup', 'click', 'dblclick']) {
      document.getElementById('canvas').addEventListener(type, () => { window.mouseEvents++; });
    }
  });
}

// Resolves once the page's hold timer (web/api.js HOLD_MS, 450 ms from the touchstart handler) has run: a
// page timer set now, due 600 ms later, runs after it (the page's timers run in the order they fall due).
// A fixed wait in the test does not do that: a busy page runs a touchend before an overdue timer.
const holdTimerRan = (page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 600)));

// Resolves when window.scrollY has not changed for 10 animation frames (a fling moves the page once per
// frame, so frames, not a timer, say it stopped).
function scrollSettled(page) {
  return page.evaluate(() => new Promise((resolve) => {
    let last = window.scrollY;
    let still = 0;
    const check = () => {
      if (window.scrollY === last) still++;
      else { still = 0; last = window.scrollY; }
      if (still >= 10) resolve(last);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }));
}

for (const dpr of [3, 2]) {
  test(`a tap on each tab opens that tab at once, with no mouse events and no hover left (DPR ${dpr})`, async () => {
    const { page, errors, context } = await openPhone(browser, server.url, { dpr });
    await countMouseEvents(page);
    // Touch-sized hit areas on a coarse pointer: the tabs are 44 CSS px high (17 px text + 2 x 13.5).
    const practice = await itemRect(page, 'Practice');
    assert.ok(practice.h >= 43.5, `Practice tab is ${practice.h} px high`);
    await page.touchscreen.tap(practice.cx, practice.cy);
    await settle(page);
    assert.equal(await page.evaluate(() => window.llmMemory.getPractice()), 'seed-7b');  // the first tap opened it
    assert.equal(await mouseValid(page), 0);  // the finger left: nothing stays hovered
    if (dpr === 3) await page.screenshot({ path: path.join(shotDir, 'phone-tap-practice.png') });
    const scaling = await itemRect(page, 'Scaling');
    await page.touchscreen.tap(scaling.cx, scaling.cy);
    await settle(page);
    assert.equal(await page.evaluate(() => window.llmMemory.getPractice()), '');
    await itemRect(page, 'Add the current scenario');  // only the Scaling tab has it
    const calculator = await itemRect(page, 'Calculator');
    await page.touchscreen.tap(calculator.cx, calculator.cy);
    await settle(page);
    await itemRect(page, '##param_slider');  // only the Calculator tab has it
    assert.equal(await page.evaluate(() => window.mouseEvents), 0);
    assert.equal(await state(page), 'params=13B');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a sideways drag moves the parameter slider; only params changes', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url);
  const slider = await itemRect(page, '##param_slider');
  const before = await state(page);
  await swipe(cdp, slider.x + slider.w * 0.5, slider.cy, slider.x + slider.w * 0.85, slider.cy, 12);
  await settle(page);
  const after = await state(page);
  assert.notEqual(after, before);
  const params = after.match(/^params=([0-9.]+)B$/);
  assert.ok(params, `only params changed: ${after}`);
  assert.ok(Number(params[1]) > 13, `dragged right from the middle: ${after}`);  // log slider 1M..2T: the middle is ~1.4B... right is larger
  await page.screenshot({ path: path.join(shotDir, 'phone-drag-slider.png') });
  assert.equal(await mouseValid(page), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a vertical swipe scrolls the inputs under the finger, not the page and not the slider it starts on', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url);
  const slider = await itemRect(page, '##param_slider');
  const mark = await itemRect(page, '##trainable_slider');
  const shotBefore = await page.locator('#canvas').screenshot();
  // The swipe starts on the slider: it scrolls, and the slider keeps its value.
  await swipe(cdp, slider.cx, slider.cy, slider.cx, slider.cy - 150, 10);
  await settle(page);
  const moved = await itemRect(page, '##trainable_slider');
  assert.ok(Math.abs(mark.y - moved.y - 150) < 1, `the content followed the finger 1:1: ${mark.y} -> ${moved.y}`);
  assert.equal(await state(page), 'params=13B');
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  const shotAfter = await page.locator('#canvas').screenshot();
  assert.notDeepEqual(shotAfter, shotBefore);
  await swipe(cdp, 200, 700, 200, 300, 10);
  await settle(page);
  await page.screenshot({ path: path.join(shotDir, 'phone-swipe-scroll.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a tap on a text field focuses a real input (the phone keyboard) whose text changes the figure', async () => {
  const { page, errors, context } = await openPhone(browser, server.url);
  const params = await itemRect(page, '##value', 0);  // the first text field: Parameters (N)
  await page.touchscreen.tap(params.cx, params.cy);
  await until(page, () => document.activeElement && document.activeElement.id === 'text-entry', null, 'params tap focuses the input');
  const entry = page.locator('#text-entry');
  await until(page, () => document.getElementById('text-entry').value === '13B', null, 'the input holds the field text');
  assert.equal(await entry.getAttribute('aria-label'), 'Parameters (N)');
  assert.equal(await entry.getAttribute('inputmode'), 'text');  // 13B, 70 billion: letters allowed
  assert.equal(await entry.getAttribute('enterkeyhint'), 'done');  // one line: Enter ends the edit
  // A phone keyboard (and an IME) sends input events only: insertText is that path.
  await page.evaluate(() => document.getElementById('text-entry').select());
  await page.keyboard.insertText('70B');
  await until(page, () => window.llmMemory.getState() === 'params=70B', null, 'typed 70B applies');
  assert.match(await summary(page), /^Weight memory 140 GB \(130\.39 GiB\)/);
  await page.keyboard.press('Enter');  // commits and closes the keyboard
  await until(page, () => document.activeElement && document.activeElement.id !== 'text-entry', null, 'Enter closes the keyboard');
  // A rejected value shows its message under the field, as typing on a desktop does; the figure stays.
  const bytes = await itemRect(page, '##value', 1);
  await page.touchscreen.tap(bytes.cx, bytes.cy);
  await until(page, () => document.activeElement.id === 'text-entry' && document.getElementById('text-entry').value === '2', null, 'bytes tap');
  assert.equal(await entry.getAttribute('inputmode'), 'decimal');  // bytes per parameter: a plain number
  await page.evaluate(() => document.getElementById('text-entry').select());
  await page.keyboard.insertText('abc');
  await settle(page);
  assert.equal(await state(page), 'params=70B');
  await page.keyboard.insertText('');
  await page.evaluate(() => { const e = document.getElementById('text-entry'); e.value = '1'; e.dispatchEvent(new Event('input')); });
  await until(page, () => window.llmMemory.getState() === 'params=70B&bytes=1', null, 'bytes=1 applies');
  await page.evaluate(() => document.getElementById('text-entry').blur());
  await settle(page);
  assert.match(await summary(page), /^Weight memory 70 GB/);
  assert.deepEqual(errors, []);
  await context.close();
});

// The race a busy page ran into (soak run 7 of 20): the hold timer runs on the page's thread, so when a
// frame kept the thread busy it ran before a quick finger's touchend was handled, and the tap became a long
// press (help shown, nothing clicked). Here the touchend is stamped 120 ms after the touchstart (CDP's
// event time) but handled after the timer has certainly run: the events' own times make it a tap.
test('a quick tap handled late (the page was busy) is still a tap, not a long press', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url);
  const close = await itemRect(page, '×');  // a common-mistake note's close box ("Dismiss this note")
  const t0 = Date.now() / 1000;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: close.cx, y: close.cy, id: 1 }], timestamp: t0 });
  await holdTimerRan(page);
  await until(page, () => Module._llm_memory_tooltip_shown() === 1, null, 'the help shows');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: t0 + 0.12 });
  await settle(page);
  // The tap dismissed that note: the next one's close box is drawn further down.
  assert.notDeepEqual(await itemRect(page, '×'), close);
  assert.equal(await tooltipShown(page), 0);     // and left no help behind
  assert.deepEqual(errors, []);
  await context.close();
});

// Its mirror: a finger held past the hold time whose touchend is handled before the overdue hold timer
// runs (stamped 600 ms after the touchstart by CDP's event time, sent at once, well inside the 450 ms the
// timer waits). The old page read that as a tap and dismissed the note; the events' own times make it a
// long press.
test('a long press handled before its overdue hold timer is still a long press, not a tap', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url);
  const close = await itemRect(page, '×');
  const t0 = Date.now() / 1000;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: close.cx, y: close.cy, id: 1 }], timestamp: t0 });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: t0 + 0.6 });
  await holdTimerRan(page);
  await until(page, () => Module._llm_memory_tooltip_shown() === 1, null, 'the help shows');
  await settle(page);
  assert.deepEqual(await itemRect(page, '×'), close);  // the note was not dismissed
  assert.equal(await tooltipShown(page), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long press shows the help of the item under the finger and clicks nothing', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url);
  const close = await itemRect(page, '×');  // a common-mistake note's close box ("Dismiss this note")
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: close.cx, y: close.cy, id: 1 }] });
  await holdTimerRan(page);  // held past the hold time, and the page knows it (a fixed 700 ms did not say so)
  await until(page, () => Module._llm_memory_tooltip_shown() === 1, null, 'the help shows');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await settle(page);
  assert.equal(await tooltipShown(page), 1);     // the help stays readable after the finger lifts
  assert.deepEqual(await itemRect(page, '×'), close);  // and the note was not dismissed
  // A tap elsewhere takes the help away.
  await page.touchscreen.tap(200, 10);
  await settle(page);
  assert.equal(await tooltipShown(page), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page keeps pinch-zoom; one finger belongs to the app; idle stays at 0 frames', async () => {
  const { page, errors, context } = await openPhone(browser, server.url);
  const viewport = await page.locator('meta[name=viewport]').getAttribute('content');
  assert.doesNotMatch(viewport, /user-scalable|maximum-scale/);
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('canvas')).touchAction), 'pinch-zoom');
  const t = await itemRect(page, 'Scaling');
  await page.touchscreen.tap(t.cx, t.cy);
  const idle = await waitForIdle(page);
  await page.waitForTimeout(1000);
  assert.equal(await frameCount(page), idle);  // touch listeners add no frames while nothing is touched
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed leaves swipes to the host page until it is tapped', async () => {
  const { page, errors, context, cdp } = await openPhone(browser, server.url + 'embed-example.html', { app: false });
  const handle = await page.waitForSelector('#embed-70b');
  await handle.scrollIntoViewIfNeeded();
  const frame = await handle.contentFrame();
  await waitForApi(frame);
  await waitForIdle(frame);
  assert.equal(await frame.evaluate(() => getComputedStyle(document.getElementById('canvas')).touchAction), 'pan-y pinch-zoom');
  const box = await handle.boundingBox();
  const y0 = await page.evaluate(() => window.scrollY);
  await swipe(cdp, box.x + box.width / 2, box.y + box.height * 0.8, box.x + box.width / 2, box.y + box.height * 0.3, 10);
  await page.waitForFunction((y) => window.scrollY > y + 100, y0, { polling: POLL_MS });  // the host page scrolled under the finger
  await scrollSettled(page);  // a quick swipe flings: wait until the host page stops
  assert.equal(await frame.evaluate(() => window.llmMemory.getState()), 'params=70B');
  // How far the fling carried the host page depends on the swipe's speed (fewer touchmoves under load): the
  // embed can end partly or wholly above the viewport, where the tap below lands on nothing (the wait for
  // 'engaged' then timed out in a whole run at load 8). Bring it back into view first.
  await handle.scrollIntoViewIfNeeded();
  await scrollSettled(page);
  // A tap engages the embed: from then on a swipe is the app's and the host page stays put.
  const inner = await handle.boundingBox();
  await page.touchscreen.tap(inner.x + 20, inner.y + inner.height - 20);
  await frame.waitForFunction(() => document.documentElement.classList.contains('engaged'), null, { polling: POLL_MS });
  assert.equal(await frame.evaluate(() => getComputedStyle(document.getElementById('canvas')).touchAction), 'pinch-zoom');
  // The browser reads touch-action from the compositor's copy of the page, which has the new value once a
  // frame after the change is committed: two animation frames (a frame must be drawn, so no timer here).
  // Without this wait, timer polling went on within the frame and a swipe scrolled the host (1048 -> 1430).
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const y1 = await page.evaluate(() => window.scrollY);
  await swipe(cdp, inner.x + inner.width / 2, inner.y + inner.height * 0.8, inner.x + inner.width / 2, inner.y + inner.height * 0.3, 10);
  await waitForIdle(frame);
  await scrollSettled(page);
  assert.equal(await page.evaluate(() => window.scrollY), y1);
  assert.deepEqual(errors, []);
  await context.close();
});

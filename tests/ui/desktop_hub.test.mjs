// The desktop app's Hugging Face look-up (imgui_app/hub_native.cpp: the CLI's libcurl transport on a
// worker thread) against our fake Hub through HF_ENDPOINT, under Xvfb: with a remembered yes, --look-up
// gives the CLI's figures; without one, the prompt shows and no request is made.
// Run: node --test tests/ui/desktop_hub.test.mjs (after a native build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeHub } from '../files/fake_hub.mjs';

const build = process.env.LLM_MEMORY_BUILD || 'build/native';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-memory-desktop-hub-'));
const shots = 'build/screenshots';
let hub;
before(async () => { hub = await startFakeHub(); fs.mkdirSync(shots, { recursive: true }); });
after(async () => { await hub.close(); fs.rmSync(dir, { recursive: true, force: true }); });

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, HOME: dir, HF_ENDPOINT: hub.endpoint, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
const gui = (args, env) => run('timeout', ['60', 'xvfb-run', '-a', '-s', '-screen 0 1000x700x24', path.resolve(build, 'llm-memory-gui'),
  '--frames', '4', '--size', '1000x700', '--state-file', path.join(dir, 'state'), '--print-report', ...args], env);

test('with a remembered yes, --look-up gives the CLI\'s figures', async () => {
  fs.writeFileSync(path.join(dir, 'consent'), 'yes\n');
  const cli = await run(path.resolve(build, 'llm-memory'), ['--hf', 'test-org/tiny-llama', '--format', 'json'], { XDG_CACHE_HOME: path.join(dir, 'c1') });
  assert.equal(cli.code, 0, cli.err);
  fs.writeFileSync(path.join(dir, 'state'), 'params=7B\n');
  const from = hub.requests.length;
  const r = await gui(['--hf-consent-file', path.join(dir, 'consent'), '--look-up', 'test-org/tiny-llama'], { XDG_CACHE_HOME: path.join(dir, 'c2') });
  assert.equal(r.code, 0, r.err);
  assert.ok(hub.requests.length > from, 'the app asked the Hub');
  const ours = JSON.parse(r.out.trim().split('\n').pop());
  const theirs = JSON.parse(cli.out);
  delete theirs.hub;
  delete theirs.file;
  assert.deepEqual(ours, theirs);
});

test('without a yes, the prompt shows and nothing is sent', async () => {
  fs.writeFileSync(path.join(dir, 'state'), 'params=7B\n');
  const from = hub.requests.length;
  const ppm = path.join(dir, 'prompt.ppm');
  const r = await gui(['--hf-consent-file', path.join(dir, 'none'), '--look-up', 'test-org/tiny-llama', '--screenshot', ppm], { XDG_CACHE_HOME: path.join(dir, 'c3') });
  assert.equal(r.code, 0, r.err);
  assert.equal(hub.requests.length, from);
  assert.equal(JSON.parse(r.out.trim().split('\n').pop()).parameters, 7e9);
  spawnSync('convert', [ppm, path.join(shots, 'desktop-hub-prompt.png')]);
});

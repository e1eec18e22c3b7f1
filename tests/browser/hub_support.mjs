// What the Hugging Face browser tests share (hub.test.mjs, hub_text_view.test.mjs; not a test file: run.mjs runs
// *.test.mjs only): the site, our fake Hub (tests/files/fake_hub.mjs) over HTTPS for the browser and over HTTP for
// the CLI, each context's proxy that tunnels https://huggingface.co and the storage host to the fake servers and
// refuses every other host (so the CSP, CORS and redirects are as in production and no test reaches the internet),
// the page opener and `llm-memory --hf ID --format json` against the same repos.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serveSite, waitForApi, watchErrors, cliPath, shotDir } from './harness.mjs';
import { startFakeHub, startHubProxy } from '../files/fake_hub.mjs';

export const STORAGE = 'https://us.aws.cdn.hf.co';  // a host of today's Hub storage (README: the CSP's hosts)
// A remembered yes (run before the page's scripts; about:blank has no storage).
export const CONSENTED = () => { try { window.localStorage.setItem('llm-memory:hf-consent', 'yes'); } catch (e) { /* about:blank */ } };

// The servers, the proxy and the browser of one test file: start() in before(), close() in after() (which also
// checks that the pages asked no host but the site, huggingface.co and the storage host). `name` names the
// temporary folder (certificate, the CLI's caches).
export function hubWorld(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `llm-memory-${name}-`));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  const world = {
    server: null,
    hub: null,       // HTTPS, where the browser's huggingface.co and storage host lead
    plainHub: null,  // the same repos over HTTP on other ports, for the CLI's reference figures
    proxy: null,     // each context's: huggingface.co and the storage host to the fake servers
    browser: null,
    async start() {
      world.server = await serveSite();
      // A throwaway self-signed certificate for the fake Hub's HTTPS (the context ignores its issuer).
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=huggingface.co', '-days', '1',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
      world.hub = await startFakeHub({ tls: { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) } });
      world.hub.setStorageOrigin(STORAGE);  // the Hub's redirects name the production storage host
      world.plainHub = await startFakeHub();
      world.proxy = await startHubProxy({ 'huggingface.co:443': world.hub.hubPort, 'us.aws.cdn.hf.co:443': world.hub.storagePort });
      world.browser = await launch();
      fs.mkdirSync(shotDir, { recursive: true });
    },
    async close() {
      await world.browser?.close(); await world.server?.close(); await world.hub?.close(); await world.plainHub?.close();
      await world.proxy?.close();
      assert.deepEqual(world.proxy?.refused ?? [], []);
    },
    // A page (desktop size, or a phone) recording console errors and every request URL, once the JS API is up.
    async open(url, options = {}) {
      const { viewport = { width: 1280, height: 800 }, initScript, phone = false } = options;
      const context = await world.browser.newContext({ viewport: phone ? { width: 390, height: 844 } : viewport,
        deviceScaleFactor: phone ? 3 : 1, isMobile: phone, hasTouch: phone, colorScheme: 'dark', ignoreHTTPSErrors: true,
        proxy: { server: world.proxy.server, bypass: '127.0.0.1' } });  // the site itself is not proxied
      if (initScript) await context.addInitScript(initScript);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const requests = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto(url);
      await waitForApi(page);
      return { context, page, errors, requests };
    },
    // `llm-memory --hf ID --format json` against the same repos (the plain HTTP fake Hub), each run with a cold cache.
    cli(id) {
      return new Promise((resolve, reject) => {
        const child = spawn(cliPath, ['--hf', id, '--format', 'json'], { env: { PATH: process.env.PATH, HOME: dir,
          XDG_CACHE_HOME: path.join(dir, `cache-${++runs}`), HF_ENDPOINT: world.plainHub.endpoint } });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => { out += d; });
        child.stderr.on('data', (d) => { err += d; });
        child.on('close', (code) => { if (code === 0) resolve(JSON.parse(out)); else reject(new Error(`llm-memory --hf ${id}: ${err}`)); });
      });
    },
  };
  return world;
}

// node web/page_loader.mjs SITE_DIR: the lean page's index.html loads index.js, or the full build (full.js +
// full.wasm: the engine models and the Hugging Face look-up) when its link asks for what only the full build
// has: an engine key, hf=ID, lookup=ID or paste=command|log (or, without scenario keys in the link, the saved
// scenario has an engine key). It also tells the page the full build's size (gzip -9), which the lean page
// names before loading it. Run after each link of the lean page (web/CMakeLists.txt).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [site] = process.argv.slice(2);
if (!site) throw new Error('usage: node web/page_loader.mjs SITE_DIR');
// The engine keys core refuses without the engine models (the settings table's rows marked for_engine in
// core/settings.cpp), and the page keys that ask for the full build. The loader runs before any wasm, so the
// list is written here; core/settings_test.cpp fails unless it is exactly the marked rows (plus hf, lookup and
// paste), and engine_io.test.mjs checks it against the settings the lean page's text view leaves out.
// api.js reads it as Module.llmMemoryFullKeys.
const FULL_BUILD_KEYS = ['engine', 'ubatch', 'nbatch', 'ngl', 'split-mode', 'flash-attn', 'v-dtype', 'parallel',
  'n-outputs-max', 'kv-unified', 'swa-full', 'mmap', 'n-cpu-moe', 'override-tensor', 'ram', 'draft-model', 'draft-dtype', 'draft-kv-dtype', 'mmproj', 'mmproj-offload', 'gpu-util', 'max-num-seqs', 'max-batched-tokens', 'block-size', 'enforce-eager',
  'hf', 'lookup', 'paste'];
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(site, file)), { level: 9 }).length;
const fullBytes = gz('full.js') + gz('full.wasm');

const loader = `<script>
(function () {
  var u = (location.search + '&' + location.hash.slice(1)).replace(/(^|[?&])(embed|theme|practice|view)=[^&]*/g, '');
  if (u.indexOf('=') < 0) try { u = localStorage.getItem('llm-memory:state') || ''; } catch (e) {}
  var s = document.createElement('script');
  Module['llmMemoryFullKeys'] = /(^|[?&])(${FULL_BUILD_KEYS.join('|')})=/;
  s.src = Module['llmMemoryFullKeys'].test(u) ? 'full.js' : 'index.js';
  Module['llmMemoryFullBytes'] = ${fullBytes};
  document.body.appendChild(s);
})();
</script>`;

const file = path.join(site, 'index.html');
const html = fs.readFileSync(file, 'utf8');
const tag = /<script[^>]*\ssrc="index\.js"[^>]*><\/script>/;
if (!tag.test(html)) throw new Error(`${file} has no <script src="index.js"> to replace`);
fs.writeFileSync(file, html.replace(tag, () => loader));

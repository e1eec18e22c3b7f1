// node web/page_loader.mjs SITE_DIR KEYS_JS: the lean page's index.html loads index.js, or the full build
// (full.js + full.wasm: the engine models and the Hugging Face look-up) when its link asks for what only the
// full build has: an engine setting, hf=ID, lookup=ID or paste=command|log (or, without scenario keys in the
// link, the saved scenario has an engine setting). It also tells the page the full build's size (gzip -9),
// which the lean page names before loading it. Run after each link of the lean page (web/CMakeLists.txt).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [site, keysTool] = process.argv.slice(2);
if (!site || !keysTool) throw new Error('usage: node web/page_loader.mjs SITE_DIR KEYS_JS');
// The engine settings come from core's settings table: KEYS_JS (web/full_build_keys.cpp, built for node)
// prints the rows marked for an engine, which the lean build refuses (node's fetch off: Emscripten's glue
// then reads its .wasm from disk, as the wasm tests do). The page's own hf, lookup and paste
// are not settings. engine_io.test.mjs checks the list against the settings the lean page's text view
// leaves out. api.js reads it as Module.llmMemoryFullKeys.
const engineKeys = execFileSync(process.execPath, ['--no-experimental-fetch', keysTool], { encoding: 'utf8' }).split('\n').filter(Boolean);
if (!engineKeys.includes('engine') || !engineKeys.every((key) => /^[a-z][a-z0-9-]*$/.test(key)))
  throw new Error(`${keysTool} printed no list of setting keys: ${JSON.stringify(engineKeys)}`);
const FULL_BUILD_KEYS = [...engineKeys, 'hf', 'lookup', 'paste'];
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(site, file)), { level: 9 }).length;
const fullBytes = gz('full.js') + gz('full.wasm');

// The loader, one statement a line here and written without its spaces (every visitor loads it): the link's scenario
// keys (else the saved scenario), the full build's keys tested against them, the build's size for the lean page.
const loader = '<script>' + [
  "(function(){",
  "var u=(location.search+'&'+location.hash.slice(1)).replace(/(^|[?&])(embed|theme|practice|view)=[^&]*/g,'');",
  "if(u.indexOf('=')<0)try{u=localStorage.getItem('llm-memory:state')||''}catch(e){}",
  "var s=document.createElement('script');",
  `Module['llmMemoryFullKeys']=/(^|[?&])(${FULL_BUILD_KEYS.join('|')})=/;`,
  "s.src=Module['llmMemoryFullKeys'].test(u)?'full.js':'index.js';",
  `Module['llmMemoryFullBytes']=${fullBytes};`,
  "document.body.appendChild(s)})();",
].join('') + '</script>';

const file = path.join(site, 'index.html');
const html = fs.readFileSync(file, 'utf8');
const tag = /<script[^>]*\ssrc="index\.js"[^>]*><\/script>/;
if (!tag.test(html)) throw new Error(`${file} has no <script src="index.js"> to replace`);
fs.writeFileSync(file, html.replace(tag, () => loader));

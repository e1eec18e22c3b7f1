// The single-file page: node web/single_file.mjs IN.html OUT.html inlines IN's script (IN.js) and its wasm
// (IN.wasm, gzip -9 then base64) into OUT, which then works opened from disk. Emscripten's -sSINGLE_FILE
// embeds the wasm as plain base64, which gzip compresses badly; gzipped first, the file is ~90 KB smaller.
// The page decompresses it with DecompressionStream (Chrome 80, Firefox 113, Safari 16.4) in instantiateWasm.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: node web/single_file.mjs IN.html OUT.html');
const stem = path.basename(input, '.html');
const html = fs.readFileSync(input, 'utf8');
const js = fs.readFileSync(path.join(path.dirname(input), `${stem}.js`), 'utf8');
const wasm = fs.readFileSync(path.join(path.dirname(input), `${stem}.wasm`));
// node's gzip header has no time stamp, so two builds write the same bytes (tests/package/dist_test.sh).
const wasmGzipBase64 = zlib.gzipSync(wasm, { level: 9 }).toString('base64');

// The glue calls Module['instantiateWasm'](imports, receiveInstance) instead of fetching its .wasm; a failure
// goes where the glue's own failures go (api.js's onAbort rejects window.llmMemory.ready).
const loader = `Module['instantiateWasm'] = function (imports, receiveInstance) {
  var gzip = Uint8Array.from(atob('${wasmGzipBase64}'), function (c) { return c.charCodeAt(0); });
  new Response(new Blob([gzip]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
    .then(function (wasm) { return WebAssembly.instantiate(wasm, imports); })
    .then(function (result) { receiveInstance(result.instance, result.module); })
    .catch(function (e) { console.error(e); if (Module['onAbort']) Module['onAbort'](e); });
  return {};
};`;

const tag = new RegExp(`<script[^>]*\\ssrc="${stem}\\.js"[^>]*></script>`);
if (!tag.test(html)) throw new Error(`${input} has no <script src="${stem}.js"> to inline`);
for (const [name, text] of [['the glue', js], ['the loader', loader]])
  if (/<\/script/i.test(text)) throw new Error(`${name} contains "</script", which would end the inline script`);
const page = html.replace(tag, () => `<script>\n${loader}\n</script>\n<script>\n${js}\n</script>`);
fs.writeFileSync(output, page);

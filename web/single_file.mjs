// The single-file page: node web/single_file.mjs SHELL.html GLUE.js APP.wasm OUT.html [APP.wasm.gz] puts the page
// shell (site/shell.html) around the full build's glue and its wasm (gzipped, then base64), into OUT, which then
// works opened from disk. APP.wasm.gz, when given, is the wasm as zopfli gzips it (Debian's zopfli: 4.5 % smaller
// than gzip -9, 18 KB of the single file); it must unzip to APP.wasm byte for byte. Without it, node's gzip -9. Emscripten's -sSINGLE_FILE embeds the wasm as plain base64, which gzip compresses
// badly; gzipped first, the file is ~90 KB smaller. The page decompresses it with DecompressionStream
// (Chrome 80, Firefox 113, Safari 16.4) in instantiateWasm, which the full build's glue reads.
import fs from 'node:fs';
import zlib from 'node:zlib';

const [shellFile, glueFile, wasmFile, output, wasmGzipFile] = process.argv.slice(2);
if (!output) throw new Error('usage: node web/single_file.mjs SHELL.html GLUE.js APP.wasm OUT.html [APP.wasm.gz]');
const shell = fs.readFileSync(shellFile, 'utf8');
const js = fs.readFileSync(glueFile, 'utf8');
const wasm = fs.readFileSync(wasmFile);
if (!js.includes('instantiateWasm')) throw new Error(`${glueFile} does not read Module.instantiateWasm (its link needs it in INCOMING_MODULE_JS_API)`);
// node's gzip header has no time stamp, nor has zopfli's, so two builds write the same bytes (tests/package/dist_test.sh).
const wasmGzip = wasmGzipFile ? fs.readFileSync(wasmGzipFile) : zlib.gzipSync(wasm, { level: 9 });
if (!zlib.gunzipSync(wasmGzip).equals(wasm)) throw new Error(`${wasmGzipFile} does not unzip to ${wasmFile}`);
const wasmGzipBase64 = wasmGzip.toString('base64');

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

// Where the shell's script goes (emcc writes <script async src="NAME.js"> there in a split build).
const slot = '{{{ SCRIPT }}}';
if (shell.split(slot).length !== 2) throw new Error(`${shellFile} must hold exactly one ${slot}`);
for (const [name, text] of [['the glue', js], ['the loader', loader]])
  if (/<\/script/i.test(text)) throw new Error(`${name} contains "</script", which would end the inline script`);
fs.writeFileSync(output, shell.replace(slot, () => `<script>\n${loader}\n</script>\n<script>\n${js}\n</script>`));

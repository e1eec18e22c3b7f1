// A small Hugging Face Hub of our own for the CLI and browser tests, on 127.0.0.1 only: the real URL
// paths (/api/models/{id}, /{id}/resolve/{rev}/{file}), Range requests (206 + Content-Range), LFS files
// redirected (302) to a second "storage" server on another port, a gated repo, a 404, a slow answer, answers
// held until the test releases them, a malformed and a huge safetensors header, and a repo answered without
// CORS headers. Every request is recorded with the bytes sent, so tests assert what a look-up read.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { sampleGguf, everyTypeGguf } from './model_files.mjs';

const enc = new TextEncoder();

// A file whose first bytes are `head` and the rest (up to `size`) zeros: large files without the memory.
function virtualFile(head, size = head.length) { return { head, size }; }

function u64(n) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
  return b;
}

// A safetensors file's header (tensors: [name, dtype, shape]) followed by `dataBytes` of zeros.
function safetensorsFile(tensors) {
  const size = { BF16: 2, F16: 2, F32: 4, I32: 4, U8: 1 };
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  let params = 0;
  for (const [name, dtype, shape] of tensors) {
    const elements = shape.reduce((a, d) => a * d, 1);
    header[name] = { dtype, shape, data_offsets: [offset, offset + elements * size[dtype]] };
    offset += elements * size[dtype];
    params += elements;
  }
  const json = enc.encode(JSON.stringify(header));
  const head = new Uint8Array(8 + json.length);
  head.set(u64(json.length), 0);
  head.set(json, 8);
  return { file: virtualFile(head, head.length + offset), headerBytes: json.length, params, dataBytes: offset };
}

// The tiny Llama of the safetensors repo: config.json and the tensors its count is made of (untied head).
const TINY_CONFIG = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 256, intermediate_size: 512,
  num_hidden_layers: 2, num_attention_heads: 8, num_key_value_heads: 4, vocab_size: 1000,
  max_position_embeddings: 8192, tie_word_embeddings: false, torch_dtype: 'bfloat16',
};
function tinyLlamaShards() {
  const layer = (i) => [
    [`model.layers.${i}.self_attn.q_proj.weight`, 'BF16', [256, 256]],
    [`model.layers.${i}.self_attn.k_proj.weight`, 'BF16', [128, 256]],
    [`model.layers.${i}.self_attn.v_proj.weight`, 'BF16', [128, 256]],
    [`model.layers.${i}.self_attn.o_proj.weight`, 'BF16', [256, 256]],
    [`model.layers.${i}.mlp.gate_proj.weight`, 'BF16', [512, 256]],
    [`model.layers.${i}.mlp.up_proj.weight`, 'BF16', [512, 256]],
    [`model.layers.${i}.mlp.down_proj.weight`, 'BF16', [256, 512]],
    [`model.layers.${i}.input_layernorm.weight`, 'BF16', [256]],
    [`model.layers.${i}.post_attention_layernorm.weight`, 'BF16', [256]],
  ];
  const one = safetensorsFile([['model.embed_tokens.weight', 'BF16', [1000, 256]], ...layer(0)]);
  const two = safetensorsFile([...layer(1), ['model.norm.weight', 'BF16', [256]], ['lm_head.weight', 'BF16', [1000, 256]]]);
  const names = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
  const weightMap = {};
  for (const [i, shard] of [one, two].entries()) {
    const header = JSON.parse(new TextDecoder().decode(shard.file.head.subarray(8)));
    for (const name of Object.keys(header)) if (name !== '__metadata__') weightMap[name] = names[i];
  }
  const index = { metadata: { total_size: one.dataBytes + two.dataBytes }, weight_map: weightMap };
  return { shards: [one, two], names, index };
}

// The fixture repos: files (name -> virtualFile), and how the repo answers.
export function fixtureRepos() {
  const repos = new Map();
  const json = (value) => virtualFile(enc.encode(JSON.stringify(value)));
  const tiny = tinyLlamaShards();
  repos.set('test-org/tiny-llama', {
    files: new Map([['config.json', json(TINY_CONFIG)], ['model.safetensors.index.json', json(tiny.index)],
      [tiny.names[0], tiny.shards[0].file], [tiny.names[1], tiny.shards[1].file], ['README.md', virtualFile(enc.encode('# tiny'))]]),
    expected: { params: tiny.shards[0].params + tiny.shards[1].params, weightBytes: tiny.index.metadata.total_size,
      headerBytes: tiny.shards.map((s) => s.headerBytes) },
  });
  // Two quants of the sample GGUF, each with 8 MiB of tensor data after its header, and a vision projector.
  const q4 = sampleGguf({ name: 'Tiny Q4_K_M' });
  const q8 = sampleGguf({ name: 'Tiny Q8_0' });
  const withData = (g) => virtualFile(g.bytes, g.bytes.length + (8 << 20));
  repos.set('test-org/tiny-llama-GGUF', {
    files: new Map([['tiny-llama-Q4_K_M.gguf', withData(q4)], ['tiny-llama-Q8_0.gguf', withData(q8)],
      ['mmproj-tiny-llama-F16.gguf', withData(q8)], ['README.md', virtualFile(enc.encode('# gguf'))]]),
    expected: { params: q4.params, weightBytes: q4.weightBytes },
  });
  // One GGUF with a 150,000-token vocabulary: a header of about 2.6 MB, read in growing chunks.
  const big = everyTypeGguf({ headerOnly: true });
  repos.set('test-org/big-vocab-GGUF', {
    files: new Map([['big-vocab-F16.gguf', virtualFile(big.bytes, big.bytes.length + big.dataBytes + (16 << 20))]]),
    expected: { params: big.params, weightBytes: big.weightBytes, headerBytes: big.bytes.length },
  });
  // Gated: the API is public (with the safetensors totals Llama 3.1 8B's model card shows, 8.03B in BF16);
  // the files need a token of an account that accepted the conditions ("good-token").
  const llamaConfig = readFileSync(new URL('../fixtures/configs/meta-llama-3-8b.json', import.meta.url));
  repos.set('meta-llama/Llama-3.1-8B', {
    gated: 'manual', tokens: ['good-token'],
    safetensors: { parameters: { BF16: 8030261248 }, total: 8030261248 },
    files: new Map([['config.json', virtualFile(new Uint8Array(llamaConfig))]]),
  });
  // Mistral Small 3.1 ships both formats: config.json (transformers' composite: text_config + vision_config) and
  // Mistral's params.json (the text model's keys at the top, the Pixtral tower under vision_encoder, with
  // mistral_common's VisionEncoderArgs keys). Both hold the same model: the Hub's safetensors total for
  // mistralai/Mistral-Small-3.1-24B-Instruct-2503 is 24,011,361,280 (its model card's 24B). A look-up reads
  // config.json; a repo with params.json alone (test-org/mistral3-params-only) is read from params.json.
  const mistral3Config = readFileSync(new URL('../fixtures/configs/mistral-small-3.1-24b-instruct-2503.json', import.meta.url));
  const mistral3Params = json({
    dim: 5120, n_layers: 40, head_dim: 128, hidden_dim: 32768, n_heads: 32, n_kv_heads: 8, rope_theta: 1000000000.0,
    norm_eps: 1e-05, vocab_size: 131072,
    vision_encoder: { hidden_size: 1024, num_channels: 3, max_image_size: 1540, patch_size: 14, rope_theta: 10000.0,
      intermediate_size: 4096, num_hidden_layers: 24, num_attention_heads: 16, mm_projector_id: 'patch_merge',
      spatial_merge_size: 2, add_pre_mm_projector_layer_norm: true, adapter_bias: false, image_token_id: 10,
      image_break_token_id: 12, image_end_token_id: 13, image_size: 1540 },
  });
  repos.set('mistralai/Mistral-Small-3.1-24B-Instruct-2503', {
    files: new Map([['config.json', virtualFile(new Uint8Array(mistral3Config))], ['params.json', mistral3Params]]),
    expected: { params: 24011361280 },
  });
  repos.set('test-org/mistral3-params-only', { files: new Map([['params.json', mistral3Params]]), expected: { params: 24011361280 } });
  // Pixtral 12B ships params.json alone (mistralai/Pixtral-12B-2409): no mm_projector_id, so LLaVA's shape (no
  // merger, no norm, a biased two-layer adapter): 12,682,739,712, transformers' conversion of the same weights
  // (mistral-community/pixtral-12b: six BF16 shards of 25.37 GB, its card's 12.7B).
  repos.set('mistralai/Pixtral-12B-2409', {
    files: new Map([['params.json', json({
      dim: 5120, n_layers: 40, head_dim: 128, hidden_dim: 14336, n_heads: 32, n_kv_heads: 8, rope_theta: 1000000000.0,
      norm_eps: 1e-05, vocab_size: 131072,
      vision_encoder: { hidden_size: 1024, num_channels: 3, image_size: 1024, patch_size: 16, rope_theta: 10000.0,
        intermediate_size: 4096, num_hidden_layers: 24, num_attention_heads: 16, image_token_id: 10,
        image_break_token_id: 12, image_end_token_id: 13, adapter_bias: true },
    })]]),
    expected: { params: 12682739712 },
  });
  repos.set('test-org/gated-no-metadata', { gated: 'auto', tokens: [], files: new Map([['config.json', json(TINY_CONFIG)]]) });
  repos.set('test-org/slow', { slowMs: 5000, files: new Map([['config.json', json(TINY_CONFIG)]]) });
  // Its file list waits until the test calls release('test-org/held') (a look-up held open, without a timer).
  repos.set('test-org/held', { held: true, files: new Map([['config.json', json(TINY_CONFIG)]]) });
  repos.set('test-org/held-too', { held: true, files: new Map([['config.json', json(TINY_CONFIG)]]) });
  const bad = enc.encode('{"model.embed_tokens.weight":{"dtype":"BF16","shape":[1000,256],');
  const badHead = new Uint8Array(8 + bad.length);
  badHead.set(u64(bad.length), 0);
  badHead.set(bad, 8);
  repos.set('test-org/bad-header', { files: new Map([['model.safetensors', virtualFile(badHead, badHead.length + 512000)]]) });
  repos.set('test-org/huge-header', { files: new Map([['model.safetensors', virtualFile(u64(50_000_000), 60_000_000)]]) });
  repos.set('test-org/no-cors', { noCors: true, files: new Map([['config.json', json(TINY_CONFIG)]]) });
  repos.set('test-org/dropped', { drop: true, files: new Map([['config.json', json(TINY_CONFIG)]]) });
  return repos;
}

const LFS = /\.(gguf|safetensors)$/;

// Starts the Hub and its storage host. Returns { endpoint, storage, requests, repos, close() }; each
// request is { host: 'hub' | 'storage', method, path, range, auth, status, bytes }. options.tls ({key,
// cert}): both serve HTTPS (the browser tests map huggingface.co and the storage host to them).
export async function startFakeHub(options = {}) {
  const repos = fixtureRepos();
  const requests = [];
  const sockets = new Set();
  let storageOrigin = '';
  const held = [];     // answers of held repos, until release()
  const waiting = [];  // whenHeld() callers
  // The no-cors repo answers for huggingface.co's own pages only: a browser elsewhere must refuse it.
  const cors = (repo) => (repo && repo.noCors ? { 'access-control-allow-origin': 'https://huggingface.co' } : {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'Content-Range, Accept-Ranges, X-Repo-Commit, X-Error-Code',
  });
  const send = (res, record, status, headers, body = new Uint8Array(0)) => {
    record.status = status;
    record.bytes = body.length;
    requests.push(record);
    res.writeHead(status, { 'content-length': body.length, ...headers });
    res.end(body);
  };
  const serveFile = (req, res, record, repo, file) => {
    const f = repo.files.get(file);
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
    const base = { ...cors(repo), 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
    let begin = 0;
    let end = f.size - 1;
    if (range) {
      begin = Number(range[1]);
      end = Math.min(Number(range[2]), f.size - 1);
      if (begin >= f.size) return send(res, record, 416, { ...base, 'content-range': `bytes */${f.size}` });
    }
    const body = new Uint8Array(end - begin + 1);
    if (begin < f.head.length) body.set(f.head.subarray(begin, Math.min(end + 1, f.head.length)), 0);
    const headers = range ? { ...base, 'content-range': `bytes ${begin}-${end}/${f.size}` } : base;
    return send(res, record, range ? 206 : 200, headers, body);
  };
  const track = (server) => server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });

  const create = (handler) => (options.tls ? https.createServer(options.tls, handler) : http.createServer(handler));
  const hub = create((req, res) => {
    const url = new URL(req.url, 'http://hub');
    const record = { host: 'hub', method: req.method, path: url.pathname, range: req.headers.range || null, auth: req.headers.authorization || null };
    if (req.method === 'OPTIONS') {
      return send(res, record, 204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'range', 'access-control-allow-methods': 'GET' });
    }
    const api = /^\/api\/models\/([^/]+\/[^/]+)(?:\/revision\/([^/]+))?$/.exec(url.pathname);
    const notFound = () => send(res, record, 401, { ...cors(null), 'content-type': 'application/json', 'x-error-code': 'RepoNotFound' },
      enc.encode('{"error":"Repository not found"}'));
    if (api) {
      const id = decodeURIComponent(api[1]);
      const repo = repos.get(id);
      if (!repo) return notFound();
      if (repo.drop) { record.status = 0; record.bytes = 0; requests.push(record); req.socket.destroy(); return undefined; }
      const answer = {
        _id: 'x', id, modelId: id, sha: '0123456789abcdef0123456789abcdef01234567', gated: repo.gated || false, private: false,
        siblings: [...repo.files].map(([name, f]) => (LFS.test(name)
          ? { rfilename: name, size: f.size, lfs: { sha256: 'ab'.repeat(32), size: f.size, pointerSize: 134 } }
          : { rfilename: name, size: f.size })),
      };
      if (repo.safetensors) answer.safetensors = repo.safetensors;
      const body = enc.encode(JSON.stringify(answer));
      const reply = () => send(res, record, 200, { ...cors(repo), 'content-type': 'application/json' }, body);
      if (repo.slowMs) { setTimeout(() => { if (!res.destroyed) reply(); }, repo.slowMs); return undefined; }
      if (repo.held) {
        held.push({ id, reply });
        waiting.splice(0).forEach((resolve) => resolve(id));
        return undefined;
      }
      return reply();
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!resolve) return send(res, record, 404, cors(null));
    const repo = repos.get(decodeURIComponent(resolve[1]));
    if (!repo) return notFound();
    const file = decodeURIComponent(resolve[3]);
    if (!repo.files.has(file)) return send(res, record, 404, { ...cors(repo), 'x-error-code': 'EntryNotFound' });
    if (repo.gated) {
      const token = (req.headers.authorization || '').replace(/^Bearer /, '');
      if (!token) return send(res, record, 401, { ...cors(repo), 'x-error-code': 'GatedRepo' });
      if (!repo.tokens.includes(token)) return send(res, record, 403, { ...cors(repo), 'x-error-code': 'GatedRepo' });
    }
    if (LFS.test(file)) {
      // As the Hub does for LFS/Xet files: a redirect to its storage host with a signed URL.
      const location = `${storageOrigin}/xet-bridge-us/${resolve[1]}/${resolve[3]}?X-Amz-Signature=fake`;
      return send(res, record, 302, { ...cors(repo), location });
    }
    return serveFile(req, res, record, repo, file);
  });
  const storage = create((req, res) => {
    const url = new URL(req.url, 'http://storage');
    const record = { host: 'storage', method: req.method, path: url.pathname, range: req.headers.range || null, auth: req.headers.authorization || null };
    if (req.method === 'OPTIONS') {
      return send(res, record, 204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'range', 'access-control-allow-methods': 'GET' });
    }
    const m = /^\/xet-bridge-us\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
    const repo = m && repos.get(decodeURIComponent(m[1]));
    const file = m && decodeURIComponent(m[2]);
    if (!repo || !repo.files.has(file) || url.searchParams.get('X-Amz-Signature') !== 'fake') return send(res, record, 403, cors(null));
    return serveFile(req, res, record, repo, file);
  });
  track(hub);
  track(storage);
  const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
  const hubPort = await listen(hub);
  const storagePort = await listen(storage);
  const scheme = options.tls ? 'https' : 'http';
  storageOrigin = `${scheme}://127.0.0.1:${storagePort}`;
  return {
    endpoint: `${scheme}://127.0.0.1:${hubPort}`,
    hubPort,
    storagePort,
    storage: storageOrigin,
    setStorageOrigin(origin) { storageOrigin = origin; },
    requests,
    repos,
    // A held repo's file list has been asked for (resolves with its id; at once when one waits already).
    whenHeld() { return held.length ? Promise.resolve(held[0].id) : new Promise((resolve) => waiting.push(resolve)); },
    // Sends the held answers for `id`; returns how many.
    release(id) {
      const now = held.filter((h) => h.id === id);
      for (const h of now) held.splice(held.indexOf(h), 1);
      now.forEach((h) => h.reply());
      return now.length;
    },
    // Bytes sent by both servers for the requests recorded since `from`.
    bytesSince(from = 0) { return requests.slice(from).reduce((n, r) => n + r.bytes, 0); },
    close() {
      for (const s of sockets) s.destroy();
      return Promise.all([new Promise((r) => hub.close(r)), new Promise((r) => storage.close(r))]);
    },
  };
}

// An HTTP proxy on 127.0.0.1 that stands in for name resolution, per browser context (playwright's
// newContext({ proxy })): a CONNECT to a mapped "host:port" is tunnelled to that port on 127.0.0.1, every
// other host is refused (403) and recorded. The browser still speaks TLS, CORS, redirects and preflights with
// the fake servers themselves, as it would with huggingface.co; only the address it connects to differs.
// map: { 'huggingface.co:443': port, ... }. Returns { server: 'http://127.0.0.1:PORT', refused, close() }.
export async function startHubProxy(map) {
  const refused = [];
  const sockets = new Set();
  const proxy = http.createServer((req, res) => {  // plain-HTTP proxying: nothing is mapped to http://
    refused.push(req.url);
    res.writeHead(403, { 'content-type': 'text/plain' });
    res.end('not mapped by the fake Hub\'s proxy\n');
  });
  proxy.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  proxy.on('connect', (req, client, head) => {
    const port = Object.hasOwn(map, req.url) ? map[req.url] : null;
    if (port === null) {
      refused.push(req.url);
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    // A server that drops its connection drops the browser's: the tunnel ends both ways, at once.
    upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy.address().port)));
  return {
    server: `http://127.0.0.1:${port}`,
    refused,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => proxy.close(r));
    },
  };
}

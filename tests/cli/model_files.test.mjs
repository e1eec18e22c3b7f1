// GGUF and safetensors files written by tests/files/model_files.mjs, read by `llm-memory --gguf` /
// `--safetensors` (header only) and, for GGUF, by an independent parser (@huggingface/gguf from npm):
// both must agree on every field we use (architecture, layers, heads, KV heads, width, context,
// vocabulary, tensor count, elements and bytes per ggml type). Run: node --test tests/cli/model_files.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf } from '@huggingface/gguf';
import { GGML_TYPES, everyTypeGguf, mistralSmallMmproj, sampleGguf, sampleSafetensors, writeGguf } from '../files/model_files.mjs';

const bin = process.env.LLM_MEMORY_BIN || 'build/native/llm-memory';
const dir = mkdtempSync(join(tmpdir(), 'llm-memory-files-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function cliJson(...args) {
  return JSON.parse(execFileSync(bin, [...args, '--format', 'json'], { encoding: 'utf8' }));
}

for (const [label, make] of [['sample llama', sampleGguf], ['every ggml type', () => everyTypeGguf()]]) {
  test(`gguf (${label}): llm-memory and @huggingface/gguf agree on every field we use`, async () => {
    const file = make();
    const path = join(dir, `${label.replace(/ /g, '_')}.gguf`);
    writeFileSync(path, file.bytes);
    const ours = cliJson('--gguf', path).file;
    const theirs = await gguf(path, { allowLocalFile: true });
    const m = theirs.metadata;
    const arch = m['general.architecture'];
    assert.equal(ours.architecture, arch);
    assert.equal(ours.version, Number(m.version));
    assert.equal(ours.tensors, Number(m.tensor_count));
    assert.equal(ours.block_count, Number(m[`${arch}.block_count`]));
    assert.equal(ours.context_length, Number(m[`${arch}.context_length`]));
    assert.equal(ours.embedding_length, Number(m[`${arch}.embedding_length`]));
    assert.equal(ours.head_count, Number(m[`${arch}.attention.head_count`]));
    assert.equal(ours.head_count_kv, Number(m[`${arch}.attention.head_count_kv`]));
    assert.equal(ours.vocab_size, m['tokenizer.ggml.tokens'].length);
    // Per ggml type: tensors and elements from their tensor infos; bytes from ggml's block sizes.
    const byType = new Map();
    for (const t of theirs.tensorInfos) {
      const elements = t.shape.reduce((a, d) => a * Number(d), 1);
      const entry = byType.get(t.dtype) || { tensors: 0, weights: 0 };
      entry.tensors += 1;
      entry.weights += elements;
      byType.set(t.dtype, entry);
    }
    assert.equal(ours.types.length, byType.size);
    for (const t of ours.types) {
      const [id, , block, blockBytes] = GGML_TYPES.find((x) => x[1] === t.type);
      const entry = byType.get(id);
      assert.ok(entry, `type ${t.type} missing from @huggingface/gguf's tensor infos`);
      assert.equal(t.tensors, entry.tensors, t.type);
      assert.equal(t.weights, entry.weights, t.type);
      assert.equal(t.bytes, (entry.weights / block) * blockBytes, t.type);
    }
    assert.equal(ours.parameters, file.params);
    assert.equal(ours.weight_bytes, file.weightBytes);
    // The data section starts where @huggingface/gguf says the tensor data begins.
    assert.equal(ours.data_offset, Number(theirs.tensorDataOffset));
  });
}

test('gguf: the figures the estimate uses (N, KV cache) come from the file', () => {
  const path = join(dir, 'sample.gguf');
  const file = sampleGguf();
  writeFileSync(path, file.bytes);
  const report = cliJson('--gguf', path, '--context', '8192');
  assert.equal(report.parameters, 2873616);
  // The weights are the file's exact total (1,953,520 B), not N x b with b rounded to 0.679812 (1,953,519 B);
  // a b typed after the file gives N x b again.
  assert.equal(report.weight_bytes, file.weightBytes);
  assert.equal(report.file.weight_bytes, file.weightBytes);
  assert.equal(cliJson('--gguf', path, '--bytes', '2').weight_bytes, 2873616 * 2);
  // 2 (K, V) x 4 layers x 4 KV heads x 32 (256 / 8) x 8192 tokens x 2 bytes.
  assert.equal(report.kv_cache_bytes, 2 * 4 * 4 * 32 * 8192 * 2);
});

test('safetensors: bytes per dtype with a GPTQ-packed linear', () => {
  const path = join(dir, 'sample.safetensors');
  const file = sampleSafetensors();
  writeFileSync(path, file.bytes);
  const report = cliJson('--safetensors', path);
  assert.equal(report.file.format, 'safetensors');
  assert.equal(report.file.data_bytes, file.dataBytes);
  // 256,000 + 256 bf16 weights and 32 x 256 int32 holding eight 4-bit values each.
  assert.equal(report.parameters, 256256 + 65536);
});

test('bad model files exit 2 with the problem named', () => {
  const bad = join(dir, 'bad.gguf');
  writeFileSync(bad, 'PK\u0003\u0004 this is a zip');
  let r = spawnSync(bin, ['--gguf', bad], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--gguf: .*bad\.gguf: not a GGUF file or a safetensors file \(it starts with "PK\?\?"/);
  const cut = join(dir, 'cut.gguf');
  writeFileSync(cut, sampleGguf().bytes.subarray(0, 5000));
  r = spawnSync(bin, ['--gguf', cut], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /claims|ends inside the header|past the end/);
  const st = join(dir, 'bad.safetensors');
  writeFileSync(st, Buffer.from([0, 0, 0, 0, 0, 0, 0, 0x80, 0x7b]));
  r = spawnSync(bin, ['--safetensors', st], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /the header length .* is longer than the file/);
});

test('--draft-model FILE: llama.cpp\'s -md GGUF read as a model, its weights the tensor bytes @huggingface/gguf lists', async () => {
  // A 4-layer Llama drafter with Llama 3's 128,256-token vocabulary (llama.cpp takes a drafter within 128 tokens of the
  // target's): its model buffer is its tensors' bytes, each ggml type's blocks as @huggingface/gguf's tensor infos give them.
  const file = sampleGguf({ vocab: 128256, name: 'Tiny Drafter' });
  const path = join(dir, 'tiny-drafter.gguf');
  writeFileSync(path, file.bytes);
  const theirs = await gguf(path, { allowLocalFile: true });
  let bytes = 0;
  for (const t of theirs.tensorInfos) {
    const [, , block, blockBytes] = GGML_TYPES.find((x) => x[0] === t.dtype);
    bytes += (t.shape.reduce((a, d) => a * Number(d), 1) / block) * blockBytes;
  }
  const report = cliJson('--model', 'llama-3.1-8b', '--dtype', 'q4_k_m', '--engine', 'llama.cpp', '--gpu', 'rtx-4090', '--context', '8192',
    '--draft-model', path);
  const terms = report.engine.devices[0].terms;
  assert.equal(terms.find((t) => t.key === 'draft_model_buffer').bytes, bytes);
  // 8,192 cells x 4 layers x (K and V) x 4 KV heads x 32 x 2 bytes (the file's 8 heads of 256 / 8 = 32, 4 KV heads).
  assert.equal(terms.find((t) => t.key === 'draft_kv_buffer').bytes, 8192 * 4 * 2 * 4 * 32 * 2);
  assert.match(report.engine.command, new RegExp(` -md ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --spec-type draft-simple`));
  // Not a model file, a vocabulary too far from the target's, a projector, a missing file: each named.
  let r = spawnSync(bin, ['--model', 'llama-3.1-8b', '--engine', 'llama.cpp', '--draft-model', join(dir, 'no-such.gguf')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--draft-model: "[^"]*no-such\.gguf" is neither a built-in model \(--list-models\) nor a file it can read/);
  const small = join(dir, 'small-vocab.gguf');
  writeFileSync(small, sampleGguf({ vocab: 1000 }).bytes);
  // (an engine's refusal is the engine's answer, as for a built-in drafter: JSON engine.error)
  assert.equal(cliJson('--model', 'llama-3.1-8b', '--engine', 'llama.cpp', '--draft-model', small).engine.error,
    "draft-model: llama.cpp refuses a drafter whose vocabulary differs from the target's by more than 128 tokens (128,256 vs 1,000)");
  const projector = join(dir, 'mmproj-for-drafter.gguf');
  writeFileSync(projector, mistralSmallMmproj().bytes);
  r = spawnSync(bin, ['--model', 'llama-3.1-8b', '--engine', 'llama.cpp', '--draft-model', projector], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--draft-model: .*mmproj-for-drafter\.gguf: is not a GGUF model file/);
});

test('mmproj: llama.cpp\'s projector file read by --mmproj FILE, checked against @huggingface/gguf', async () => {
  // Mistral Small 3.x's projector file (tests/files/model_files.mjs): 86,630,400 bytes at warm-up with flash attention
  // off (82.62 MiB, llama.cpp's own clip.cpp: bench/mmproj/README.md).
  const { bytes, weightBytes } = mistralSmallMmproj();
  const path = join(dir, 'mmproj-ms.gguf');
  writeFileSync(path, bytes);
  const theirs = await gguf(path, { allowLocalFile: true });
  assert.equal(theirs.metadata['clip.projector_type'], 'pixtral');
  const report = JSON.parse(execFileSync(bin, ['--model', 'mistral-small-3.1-24b', '--engine', 'llama.cpp', '--mmproj', path,
    '--flash-attn', 'off', '--gpu', 'rtx-4090', '--dtype', 'q4_k_m', '--format', 'json'], { encoding: 'utf8' }));
  const text = JSON.stringify(report);
  assert.match(text, /"key":"mmproj_compute_buffer","label":"Projector compute buffer","bytes":86630400,/);
  assert.match(text, new RegExp(`"key":"mmproj_buffer","label":"Projector weights \\(mmproj\\)","bytes":${weightBytes},`));
  // A model file is not a projector, and a projector is not a model.
  const model = join(dir, 'model.gguf');
  writeFileSync(model, sampleGguf().bytes);
  let r = spawnSync(bin, ['--model', 'mistral-small-3.1-24b', '--engine', 'llama.cpp', '--mmproj', model], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--mmproj: .*model\.gguf: is not llama\.cpp's projector file/);
  r = spawnSync(bin, ['--gguf', path], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--gguf: .*mmproj-ms\.gguf: is llama\.cpp's projector file \(mmproj\): give it with --mmproj FILE/);
  r = spawnSync(bin, ['--model', 'mistral-small-3.1-24b', '--engine', 'llama.cpp', '--mmproj', 'maybe'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--mmproj: "maybe" is neither true nor false, nor a file it can read/);
});

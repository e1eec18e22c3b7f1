// Writers for small GGUF and safetensors files (header + zero-filled data), shared by the node, CLI and
// browser tests. Sizes: ggml's type traits (block values, block bytes), as in core/gguf.cpp.
export const GGML_TYPES = [
  [0, 'F32', 1, 4], [1, 'F16', 1, 2], [2, 'Q4_0', 32, 18], [3, 'Q4_1', 32, 20], [6, 'Q5_0', 32, 22],
  [7, 'Q5_1', 32, 24], [8, 'Q8_0', 32, 34], [9, 'Q8_1', 32, 36], [10, 'Q2_K', 256, 84], [11, 'Q3_K', 256, 110],
  [12, 'Q4_K', 256, 144], [13, 'Q5_K', 256, 176], [14, 'Q6_K', 256, 210], [15, 'Q8_K', 256, 292],
  [16, 'IQ2_XXS', 256, 66], [17, 'IQ2_XS', 256, 74], [18, 'IQ3_XXS', 256, 98], [19, 'IQ1_S', 256, 50],
  [20, 'IQ4_NL', 32, 18], [21, 'IQ3_S', 256, 110], [22, 'IQ2_S', 256, 82], [23, 'IQ4_XS', 256, 136],
  [24, 'I8', 1, 1], [25, 'I16', 1, 2], [26, 'I32', 1, 4], [27, 'I64', 1, 8], [28, 'F64', 1, 8],
  [29, 'IQ1_M', 256, 56], [30, 'BF16', 1, 2], [34, 'TQ1_0', 256, 54], [35, 'TQ2_0', 256, 66],
  [39, 'MXFP4', 32, 17], [40, 'NVFP4', 64, 36], [41, 'Q1_0', 128, 18],
];

class Bytes {
  constructor() { this.parts = []; }
  u8(v) { this.parts.push(Uint8Array.of(v)); }
  u32(v) { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v, true); this.parts.push(b); }
  u64(v) { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(v), true); this.parts.push(b); }
  f32(v) { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, v, true); this.parts.push(b); }
  str(s) { const e = new TextEncoder().encode(s); this.u64(e.length); this.parts.push(e); }
  raw(b) { this.parts.push(b); }
  get length() { return this.parts.reduce((n, p) => n + p.length, 0); }
  concat() {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) { out.set(p, at); at += p.length; }
    return out;
  }
}

// A GGUF v3 file: `metadata` is [key, kind, value] with kind 'u32' | 'u64' | 'f32' | 'bool' | 'str' |
// 'strs' (array of strings) | 'i32s' (array of int32); `tensors` is [name, dims, typeId] (an id ggml
// does not define is written as a 1-byte plain type: bad files). Returns { bytes, weightBytes, params,
// dataBytes }; with `headerOnly`, bytes stop where the tensor data starts (the file is bytes followed by
// dataBytes zero bytes: a sparse file or a Blob of zeros stands in for a large data section).
export function writeGguf(metadata, tensors, { headerOnly = false } = {}) {
  const b = new Bytes();
  b.raw(new TextEncoder().encode('GGUF'));
  b.u32(3);
  b.u64(tensors.length);
  b.u64(metadata.length);
  for (const [key, kind, value] of metadata) {
    b.str(key);
    if (kind === 'u32') { b.u32(4); b.u32(value); }
    else if (kind === 'u64') { b.u32(10); b.u64(value); }
    else if (kind === 'f32') { b.u32(6); b.f32(value); }
    else if (kind === 'bool') { b.u32(7); b.u8(value ? 1 : 0); }
    else if (kind === 'str') { b.u32(8); b.str(value); }
    else if (kind === 'strs') { b.u32(9); b.u32(8); b.u64(value.length); for (const s of value) b.str(s); }
    else if (kind === 'i32s') { b.u32(9); b.u32(5); b.u64(value.length); for (const v of value) { b.u32(v); } }
  }
  let offset = 0;
  let weightBytes = 0;
  let params = 0;
  for (const [name, dims, typeId] of tensors) {
    const t = GGML_TYPES.find((x) => x[0] === typeId) || [typeId, '?', 1, 1];
    const elements = dims.reduce((a, d) => a * d, 1);
    const bytes = (elements / t[2]) * t[3];
    b.str(name);
    b.u32(dims.length);
    for (const d of dims) b.u64(d);
    b.u32(typeId);
    b.u64(offset);
    offset += Math.ceil(bytes / 32) * 32;
    weightBytes += bytes;
    params += elements;
  }
  const pad = (32 - (b.length % 32)) % 32;
  b.raw(new Uint8Array(headerOnly ? pad : pad + offset));
  return { bytes: b.concat(), weightBytes, params, dataBytes: offset };
}

// The model the CLI, page and app tests read: a 4-layer "llama" with 8 heads, 4 KV heads, width 256
// (head 32), context 8192, a `vocab`-token vocabulary (1,000 by default), and tensors in Q4_K, Q6_K, Q8_0,
// F16 and F32; `head: false` leaves out output.weight (a tied head).
export function sampleGguf({ vocab: vocabSize = 1000, head = true, name = 'Sample Llama' } = {}) {
  const vocab = Array.from({ length: vocabSize }, (_, i) => `tok${i}`);
  const metadata = [
    ['general.architecture', 'str', 'llama'],
    ['general.name', 'str', name],
    ['llama.block_count', 'u32', 4],
    ['llama.context_length', 'u32', 8192],
    ['llama.embedding_length', 'u32', 256],
    ['llama.feed_forward_length', 'u32', 512],
    ['llama.attention.head_count', 'u32', 8],
    ['llama.attention.head_count_kv', 'u32', 4],
    ['llama.rope.freq_base', 'f32', 10000],
    ['tokenizer.ggml.add_bos_token', 'bool', true],
    ['tokenizer.ggml.tokens', 'strs', vocab],
    ['tokenizer.ggml.token_type', 'i32s', vocab.map(() => 1)],
  ];
  const tensors = [['token_embd.weight', [256, vocabSize], 14], ['output_norm.weight', [256], 0]];
  if (head) tensors.push(['output.weight', [256, vocabSize], 8]);
  for (let i = 0; i < 4; ++i) {
    for (const n of ['attn_q', 'attn_output']) tensors.push([`blk.${i}.${n}.weight`, [256, 256], 12]);
    for (const n of ['attn_k', 'attn_v']) tensors.push([`blk.${i}.${n}.weight`, [256, 128], 12]);
    for (const n of ['ffn_gate', 'ffn_up']) tensors.push([`blk.${i}.${n}.weight`, [256, 512], 12]);
    tensors.push([`blk.${i}.ffn_down.weight`, [512, 256], 14]);
    for (const n of ['attn_norm', 'ffn_norm']) tensors.push([`blk.${i}.${n}.weight`, [256], 0]);
  }
  tensors.push(['rope_freqs.weight', [16], 1]);
  return writeGguf(metadata, tensors);
}

// Every ggml type, two blocks per row and three rows, under a Qwen3-style header with a 150,000-token
// tokenizer (a header of about 2.6 MB: several of the readers' 1 MiB chunks). `extra` tensors are added
// after them (e.g. a large one for a file whose data section is large).
export function everyTypeGguf({ extra = [], headerOnly = false } = {}) {
  const tensors = GGML_TYPES.map(([id, name, block]) => [`blk.0.t_${name}`, [block * 2, 3], id]).concat(extra);
  const metadata = [
    ['general.architecture', 'str', 'qwen3'],
    ['qwen3.block_count', 'u32', 3],
    ['qwen3.context_length', 'u64', 40960],
    ['qwen3.embedding_length', 'u32', 512],
    ['qwen3.attention.head_count', 'u32', 8],
    ['qwen3.attention.head_count_kv', 'u32', 4],
    ['qwen3.attention.key_length', 'u32', 128],
    ['tokenizer.ggml.tokens', 'strs', Array.from({ length: 150000 }, (_, i) => `token-${i}`)],
  ];
  return writeGguf(metadata, tensors, { headerOnly });
}

// A safetensors file: tensors are [name, dtype, shape, bytes]; data laid out back to back.
export function writeSafetensors(tensors) {
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, dtype, shape, bytes] of tensors) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const b = new Bytes();
  b.u64(json.length);
  b.raw(json);
  b.raw(new Uint8Array(offset));
  return { bytes: b.concat(), dataBytes: offset };
}

// A bf16 model with one GPTQ-packed linear (qweight, qzeros, scales, g_idx).
export function sampleSafetensors() {
  return writeSafetensors([
    ['model.embed_tokens.weight', 'BF16', [1000, 256], 1000 * 256 * 2],
    ['model.layers.0.self_attn.q_proj.qweight', 'I32', [32, 256], 32 * 256 * 4],
    ['model.layers.0.self_attn.q_proj.qzeros', 'I32', [2, 32], 2 * 32 * 4],
    ['model.layers.0.self_attn.q_proj.scales', 'F16', [2, 256], 2 * 256 * 2],
    ['model.layers.0.self_attn.q_proj.g_idx', 'I32', [256], 256 * 4],
    ['model.norm.weight', 'BF16', [256], 256 * 2],
  ]);
}

// Mistral Small 3.x's projector file as convert_hf_to_gguf.py labels it (general.architecture "clip",
// clip.projector_type "pixtral", the encoder's clip.vision.* widths, projection_dim the text model's 5,120), two small
// f16 tensors standing for the rest. llama.cpp's buffer for it at warm-up with flash attention off: 86,630,400 bytes
// (82.62 MiB, measured with llama.cpp's own clip.cpp: bench/mmproj/README.md). {bytes, weightBytes}.
export function mistralSmallMmproj() {
  return writeGguf([
    ['general.architecture', 'str', 'clip'], ['clip.projector_type', 'str', 'pixtral'],
    ['clip.vision.embedding_length', 'u32', 1024], ['clip.vision.feed_forward_length', 'u32', 4096],
    ['clip.vision.attention.head_count', 'u32', 16], ['clip.vision.patch_size', 'u32', 14],
    ['clip.vision.image_size', 'u32', 1540], ['clip.vision.spatial_merge_size', 'u32', 2],
    ['clip.vision.projection_dim', 'u32', 5120],
  ], [['v.patch_embd.weight', [14, 14, 3, 1024], 1], ['mm.2.weight', [5120, 8], 1]]);
}

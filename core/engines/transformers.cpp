// Hugging Face transformers `model.generate` (4.5x, device_map="auto"): the weights in the load dtype
// (bitsandbytes 4/8-bit quantizes the decoder's linear layers and keeps embeddings, head and norms at 16
// bits), the DynamicCache, the prefill's largest layer activations and the last token's logits in fp32,
// and the CUDA context. Layers are spread evenly over the GPUs; the embedding on the first, the head on the last.
#include "engine.hpp"

#include <algorithm>

#include "../formats.hpp"
#include "../gpus.hpp"
#include "../kv_cache.hpp"

namespace llm_memory {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;
// The CUDA context PyTorch creates per GPU (the estimator's framework default: 512 MiB).
constexpr std::uint64_t kTorchContextBytes = 512 * kMiB;
std::string n(std::uint64_t v) { return format_count_exact(v); }

}  // namespace

Expected<EngineEstimate> transformers_estimate(const Scenario& s) {
    if (!s.model) return Error{"engine", "transformers needs the model's architecture: give --model or --config"};
    const Architecture& a = s.model->architecture;
    if (a.num_hidden_layers == 0 || a.hidden_size == 0 || a.vocab_size == 0)
        return Error{"engine", "the model's architecture lacks layers, width or vocabulary size"};
    if (s.model->layout.known)
        return Error{"engine", "transformers loads safetensors checkpoints, not GGUF files here: use --engine llama.cpp for a GGUF"};
    const Expected<Estimate> e = estimate(s);
    if (!e) return e.failure();
    const ParamBreakdown& c = s.model->counts;
    const bool bnb = s.dtype == "nf4" || s.dtype == "nf4_dq" || s.dtype == "int8" || s.dtype == "int4";
    const std::uint64_t outside = c.embedding_count + c.output_head_count + c.norm_count;
    const std::uint64_t linear = c.total_count > outside ? c.total_count - outside : 0;
    std::uint64_t layer_weights = 0, embed = 0, head = 0;
    std::string wsteps;
    if (bnb) {
        const Expected<WeightFormat> f = find_weight_format(s.dtype);
        if (!f) return Error{"dtype", f.error()};
        layer_weights = format_bytes(*f, linear) + 2 * c.norm_count;
        embed = 2 * c.embedding_count;
        head = 2 * c.output_head_count;
        wsteps = "bitsandbytes: " + n(linear) + " linear weights in " + f->label + " + norms, embeddings and head in 16 bits";
    } else if (e->quantized_linear_count > 0) {
        // GPTQ or AWQ: the checkpoint's own split (the estimator's), its embeddings and head in 16 bits.
        embed = 2 * c.embedding_count;
        head = 2 * c.output_head_count;
        layer_weights = e->weight_bytes > embed + head ? e->weight_bytes - embed - head : 0;
        wsteps = n(e->quantized_linear_count) + " linear weights in " + e->weight_format + " + norms, embeddings and head in 16 bits";
    } else {
        const std::uint64_t total = c.total_count > 0 ? c.total_count : 1;
        auto bytes_of = [&](std::uint64_t p) { return static_cast<std::uint64_t>(static_cast<u128>(e->weight_bytes) * p / total); };
        embed = bytes_of(c.embedding_count);
        head = bytes_of(c.output_head_count);
        layer_weights = e->weight_bytes - embed - head;
        wsteps = "N x b in the load dtype";
    }
    const std::uint64_t gpus = std::max<std::uint64_t>(s.gpu_count, 1);
    std::uint64_t capacity = 0;
    std::string gpu_label;
    if (!s.gpu.empty())
        if (const Expected<Gpu> g = find_gpu(s.gpu)) {
            capacity = g->capacity_bytes;
            gpu_label = g->label;
        }
    if (s.gpu_memory_bytes > 0) {
        capacity = s.gpu_memory_bytes;
        gpu_label = "custom " + format_bytes_binary(capacity);
    }
    const std::uint64_t context = s.context_tokens > 0 ? s.context_tokens : 2048;
    const std::uint64_t batch = s.batch_size;
    const Expected<KvCacheShape> shape = kv_cache_shape(a);
    if (!shape) return shape.failure();
    const Expected<WeightFormat> kvf = find_weight_format(s.kv_dtype);
    if (!kvf) return Error{"kv-dtype", kvf.error()};
    const Expected<std::uint64_t> kv_total = kv_cache_bytes(*shape, context, batch, *kvf);
    if (!kv_total) return kv_total.failure();
    const std::uint64_t tokens = context * batch;
    const std::uint64_t ff = a.is_moe() ? a.moe_intermediate_size * std::max<std::uint64_t>(a.num_experts_per_tok, 1) : a.intermediate_size;
    const std::uint64_t prefill = tokens * (3 * ff + 4 * a.hidden_size) * 2;
    const std::uint64_t logits = batch * a.vocab_size * (2 + 4);

    EngineEstimate out;
    out.kind = EngineKind::transformers;
    out.name = "transformers";
    out.version = "transformers 4.5x generate (DynamicCache, logits of the last token only)";
    for (std::uint64_t g = 0; g < gpus; ++g) {
        EngineDevice d;
        d.device = "gpu" + std::to_string(g);
        d.label = "GPU " + std::to_string(g) + (gpu_label.empty() ? "" : " (" + gpu_label + ")");
        d.is_gpu = true;
        d.capacity_bytes = capacity;
        const std::uint64_t lo = a.num_hidden_layers * g / gpus, hi = a.num_hidden_layers * (g + 1) / gpus;
        std::uint64_t w = static_cast<std::uint64_t>(static_cast<u128>(layer_weights) * (hi - lo) / a.num_hidden_layers);
        std::string steps = wsteps + ": layers " + n(lo) + "-" + n(hi == 0 ? 0 : hi - 1);
        if (g == 0) { w += embed; steps += " + embeddings"; }
        if (g == gpus - 1) { w += head; steps += head > 0 ? " + lm_head" : ""; }
        d.terms.push_back({"weights", "Weights", steps, w, EngineTermKind::weights});
        d.terms.push_back({"kv_cache", "KV cache (DynamicCache)", n(context) + " tokens x " + n(batch) + " sequences, layers " + n(lo) + "-" + n(hi == 0 ? 0 : hi - 1),
                           static_cast<std::uint64_t>(static_cast<u128>(*kv_total) * (hi - lo) / a.num_hidden_layers), EngineTermKind::kv_cache});
        std::uint64_t act = prefill;
        std::string asteps = "prefill of " + n(tokens) + " tokens: " + n(tokens) + " x (3 x " + n(ff) + " + 4 x " + n(a.hidden_size) + ") x 2";
        if (g == gpus - 1) {
            act += logits;
            asteps += " + last-token logits " + n(batch) + " x " + n(a.vocab_size) + " x (2 + 4 fp32)";
        }
        d.terms.push_back({"activations", "Prefill activations and logits", asteps, act, EngineTermKind::compute});
        d.terms.push_back({"cuda_context", "CUDA context", "PyTorch's CUDA context per GPU (512 MiB)", kTorchContextBytes, EngineTermKind::other});
        finish_device(d);
        d.reserved_bytes = d.total_bytes;
        if (capacity > 0) judge_device(d, d.total_bytes, capacity);
        out.devices.push_back(std::move(d));
    }
    add_host_device(out);
    out.context_tokens = context;
    out.gpu_known = capacity > 0;
    out.settings.push_back("context " + n(context) + " tokens x batch " + n(batch) + (s.context_tokens == 0 ? " (2048 when --context is not given)" : ""));
    out.settings.push_back(std::string("load dtype ") + (s.dtype.empty() ? "from --bytes" : s.dtype) + (bnb ? " (bitsandbytes)" : "") + ", device_map=\"auto\" over " + n(gpus) + " GPU(s)");
    std::string model = s.model->display_name;
    const std::size_t space = model.find(' ');
    if (space != std::string::npos) model = model.substr(0, space);
    out.command = "AutoModelForCausalLM.from_pretrained(\"" + model + "\", device_map=\"auto\"" +
                  (bnb ? std::string(", quantization_config=BitsAndBytesConfig(") + (s.dtype == "int8" ? "load_in_8bit=True" : "load_in_4bit=True") + ")" : ", torch_dtype=\"auto\"") +
                  ").generate(input_ids, max_new_tokens=...)  # " + n(context) + " tokens x " + n(batch);
    finish_estimate(out, s);
    return out;
}

}  // namespace llm_memory

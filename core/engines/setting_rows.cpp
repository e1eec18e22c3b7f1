// The engines' settings: llama.cpp's (and Ollama's), the drafter's, the host's RAM and vLLM's rows of the settings
// table, in its order after the engine choice (core/settings.cpp splices them in). Each row is its key, its words
// for --help and the forms, and how it reads and prints its value; the engine models read the fields they set.
#include <string>
#include <string_view>
#include <vector>

#include "engine.hpp"
#include "formats.hpp"
#include "model_presets.hpp"
#include "setting_rows.hpp"

namespace llm_memory {

using namespace settings_detail;

namespace {

// --image-min-tokens / --image-max-tokens: a count of 1 to 1,000,000, or auto (the tower's own).
std::string apply_image_tokens(std::uint64_t& field, std::string_view text) {
    const std::string w = catalogue_key(text);
    if (w.empty() || w == "auto") return (field = 0, std::string());
    return apply_whole(field, w, 1, 1'000'000);
}

// A value that names a GGUF file (draft-model's message for a file a link cannot carry).
bool ends_with_gguf(const std::string& w) { return w.size() > 5 && w.compare(w.size() - 5, 5, ".gguf") == 0; }

}  // namespace

std::vector<SettingSpec> engine_setting_rows() {
    using K = SettingKind;
    using E = SettingEngine;
    return {
        for_engine(E::llama_cpp, {"ubatch", "T", "llama.cpp -ub: physical batch, the tokens the compute buffer is sized for (default 512)",
         "Physical batch (-ub)", "tokens", K::count, "256",
         [](Scenario& s, std::string_view t) { return apply_engine_tokens(s.engine.ubatch_tokens, t, 1); },
         [](const Scenario& s) { return show_whole_if(s.engine.ubatch_tokens, 0); },
         [](const Scenario&) { return std::string("512"); }, nullptr, "512",
         "The tokens one compute pass takes; the compute buffer and the logits are sized for it, not the context."}),
        for_engine(E::llama_cpp, {"nbatch", "T", "llama.cpp -b: logical batch (default 2048; Ollama 512)",
         "Logical batch (-b)", "tokens", K::count, "1024",
         [](Scenario& s, std::string_view t) { return apply_engine_tokens(s.engine.nbatch_tokens, t, 1); },
         [](const Scenario& s) { return show_whole_if(s.engine.nbatch_tokens, 0); },
         [](const Scenario&) { return std::string("2048"); }, nullptr, "2048", "Tokens submitted at once (Ollama: 512)."}),
        for_engine(E::llama_cpp, {"n-outputs-max", "N|auto|all", "llama.cpp n_outputs_max: logits rows reserved (default auto: -np x (1 + draft tokens), as llama-server; all: the u-batch, as builds before May 2026)",
         "Logits rows reserved", "rows, auto or all", K::text, "all",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             s.engine.outputs_all = w == "all";
             s.engine.n_outputs_max = 0;
             if (s.engine.outputs_all || w.empty() || w == "auto") return std::string();
             return apply_whole(s.engine.n_outputs_max, w, 1, 1u << 20);
         },
         [](const Scenario& s) { return s.engine.outputs_all ? std::string("all") : show_whole_if(s.engine.n_outputs_max, 0); },
         [](const Scenario&) { return std::string("auto"); }, nullptr, "auto, 4 or all",
         "all: every u-batch token's logits, as libllama and older builds."}),
        for_engine(E::llama_cpp, {"ngl", "N|all|auto", "llama.cpp -ngl: layers on the GPU counted from the output layer back; all; or auto (default: --fit chooses)",
         "GPU layers (-ngl)", "layers, all or auto", K::text, "20",
         apply_ngl, show_ngl, [](const Scenario&) { return std::string("auto"); }, nullptr, "auto",
         "Counted from the output layer back; auto = what --fit settles on (1 GiB free per GPU)."}),
        for_engine(E::llama_cpp, {"split-mode", "MODE", "llama.cpp -sm over several GPUs: layer (default), row or none",
         "Split mode (-sm)", "", K::choice, "row",
         [](Scenario& s, std::string_view t) { return apply_choice(s.engine.split_mode, t, split_mode_choices()); },
         [](const Scenario& s) { return s.engine.split_mode == SplitMode::layer ? std::string() : split_mode_choices()[static_cast<std::size_t>(s.engine.split_mode)].word; },
         [](const Scenario&) { return std::string("layer"); }, split_mode_choices}),
        for_engine(E::llama_cpp, {"flash-attn", "auto|on|off", "llama.cpp -fa: flash attention (default auto = on where the GPU supports it)",
         "Flash attention (-fa)", "", K::choice, "off",
         [](Scenario& s, std::string_view t) { return apply_choice(s.engine.flash_attn, t, switch_choices()); },
         [](const Scenario& s) { return show_switch(s.engine.flash_attn); },
         [](const Scenario&) { return std::string("auto"); }, switch_choices, "",
         "auto = on where the GPU supports it. Off: the compute buffer holds the f32 attention scores."}),
        for_engine(E::llama_cpp, {"v-dtype", "NAME", "llama.cpp -ctv: V-cache format (default: follows --kv-dtype); a quantized V cache needs flash attention",
         "V-cache format (-ctv)", "", K::text, "q8_0",
         apply_v_dtype, [](const Scenario& s) { return s.engine.v_dtype; }, [](const Scenario& s) { return s.kv_dtype; }, nullptr,
         "same as the K cache", "Follows the KV-cache format unless set; a quantized V cache needs flash attention."}),
        for_engine(E::llama_cpp, {"parallel", "N", "llama.cpp -np: sequences served at once (default: llama-server 4 slots sharing one unified cache; Ollama 1)",
         "Parallel slots (-np)", "sequences", K::count, "2",
         [](Scenario& s, std::string_view t) { return apply_whole(s.engine.parallel, t, 1, kMaxSlots); },
         [](const Scenario& s) { return show_whole_if(s.engine.parallel, 0); },
         [](const Scenario&) { return std::string("4"); }, nullptr, "4",
         "llama-server's slots (Ollama: 1). Without a unified cache each slot gets context / slots cells."}),
        for_engine(E::llama_cpp, {"kv-unified", "auto|on|off", "llama.cpp --kv-unified: one KV cache shared by all slots (default auto: on when -np is left to llama-server)",
         "Unified KV cache", "", K::choice, "off",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             return apply_choice(s.engine.kv_unified, w == "true" || w == "1" ? std::string("on") : w == "false" || w == "0" ? std::string("off") : w, switch_choices());
         },
         [](const Scenario& s) { return show_switch(s.engine.kv_unified); },
         [](const Scenario&) { return std::string("auto"); }, switch_choices, "",
         "One cache shared by all slots; auto = on when -np is left to llama-server."}),
        for_engine(E::llama_cpp, {"swa-full", "[BOOL]", "llama.cpp --swa-full: sliding-window layers keep the whole context",
         "Full-size SWA cache (--swa-full)", "", K::flag, "true",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.swa_full, t); },
         [](const Scenario& s) { return s.engine.swa_full ? std::string("true") : std::string(); }, nullptr, nullptr, "",
         "Sliding-window layers keep the whole context instead of their window."}),
        for_engine(E::llama_cpp, {"mmap", "[BOOL]", "llama.cpp memory-maps the model file (default true; false = --no-mmap)",
         "Memory-map the model file (mmap)", "", K::flag, "false",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.mmap, t); },
         [](const Scenario& s) { return s.engine.mmap ? std::string() : std::string("false"); },
         [](const Scenario&) { return std::string("true"); }, nullptr, "",
         "false = --no-mmap: the CPU's layers are read into RAM instead of mapped from the file."}),
        for_engine(E::llama_cpp, {"n-cpu-moe", "N|all", "llama.cpp --n-cpu-moe: the routed experts of the first N layers stay in host RAM; all = --cpu-moe",
         "Expert layers on the CPU (--n-cpu-moe)", "layers or all", K::text, "20",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             s.engine.cpu_moe_all = w == "all";
             if (s.engine.cpu_moe_all || w.empty()) return std::string();
             return apply_whole(s.engine.n_cpu_moe, w, 0, 100000);
         },
         [](const Scenario& s) { return s.engine.cpu_moe_all ? std::string("all") : show_whole_if(s.engine.n_cpu_moe, 0); },
         [](const Scenario&) { return std::string("0"); }, nullptr, "0, 20 or all",
         "The experts then run at system-memory bandwidth; attention and the KV cache stay on the GPU."}),
        for_engine(E::llama_cpp, {"override-tensor", "LIST", "llama.cpp -ot: PATTERN=CPU[,PATTERN=CPU]: tensors whose names the regex finds stay in host RAM (exps=CPU)",
         "Tensor overrides (-ot)", "", K::text, "exps=CPU",
         [](Scenario& s, std::string_view t) {
             std::string list(trim(t)), entry;
             for (std::size_t at = 0; at <= list.size();) {
                 const std::size_t end = std::min(list.find(',', at), list.size());
                 entry = std::string(trim(std::string_view(list).substr(at, end - at)));
                 at = end + 1;
                 if (entry.empty() && list.empty()) break;
                 const std::size_t eq = entry.rfind('=');
                 if (eq == std::string::npos || eq == 0) return "\"" + printable_excerpt(entry, 40) + "\" is not PATTERN=CPU";
                 if (entry.substr(eq + 1) != "CPU")
                     return "only =CPU overrides are modelled (\"" + printable_excerpt(entry.substr(eq + 1), 20) + "\" is a device)";
             }
             s.engine.override_tensor = list;
             return std::string();
         },
         [](const Scenario& s) { return s.engine.override_tensor; }, nullptr, nullptr, "exps=CPU",
         "Regexes over tensor names, as llama.cpp's -ot; only =CPU is modelled."}),
        for_engine(E::drafter, {"draft-model", "NAME|FILE", "llama.cpp -md, vLLM's draft_model speculative config: a built-in model (or, in the CLI with llama.cpp, a GGUF file) as the speculative-decoding drafter: its weights and its own KV cache at the target's context",
         "Draft model (-md)", "", K::text, "llama-3.2-1b",
         [](Scenario& s, std::string_view t) {
             const std::string w(trim(t));
             // A drafter file read for it is named in the state (a link cannot carry the file): its own name keeps it.
             if (s.engine.draft_file && w == s.engine.draft_model) return std::string();
             if (w.empty() || w == "none") return (s.engine.draft_model.clear(), s.engine.draft_file.reset(), std::string());
             const ModelPreset* p = find_preset(w);
             if (p == nullptr)
                 return "\"" + printable_excerpt(w, 40) + "\" is not a built-in model (--list-models)" +
                        (ends_with_gguf(w) ? std::string("; a drafter file is not carried by a link or a saved state: give --draft-model FILE to the CLI")
                                           : std::string());
             s.engine.draft_model = p->key;
             s.engine.draft_file.reset();
             return std::string();
         },
         [](const Scenario& s) { return s.engine.draft_model; }, nullptr, nullptr, "none, or llama-3.2-1b",
         "A second model in memory: its weights and a second KV cache at the full context."}),
        for_engine(E::llama_cpp, {"draft-dtype", "NAME", "the drafter's weight format (default: the target's)",
         "Draft weight format", "", K::text, "q8_0",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             if (w.empty()) return (s.engine.draft_dtype.clear(), std::string());
             const Expected<WeightFormat> f = find_weight_format(w);
             if (!f) return f.error();
             s.engine.draft_dtype = f->key;
             return std::string();
         },
         [](const Scenario& s) { return s.engine.draft_dtype; }, nullptr, nullptr, "the target's", ""}),
        for_engine(E::llama_cpp, {"draft-kv-dtype", "NAME", "llama.cpp -ctkd/-ctvd: the drafter's cache type (default f16)",
         "Draft cache type (-ctkd)", "", K::text, "q8_0",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             if (w.empty() || w == "f16" || w == "fp16") return (s.engine.draft_kv_dtype.clear(), std::string());
             if (w != "bf16" && w != "fp32" && w != "f32" && w != "q8_0" && w != "q4_0") return "\"" + printable_excerpt(w, 20) + "\" is not f16, bf16, f32, q8_0 or q4_0";
             s.engine.draft_kv_dtype = w == "f32" ? "fp32" : w;
             return std::string();
         },
         [](const Scenario& s) { return s.engine.draft_kv_dtype; }, nullptr, nullptr, "f16", ""}),
        for_engine(E::drafter, {"draft-max", "N", "tokens the drafter proposes a step: llama.cpp --spec-draft-n-max (default 3; llama-server reserves -np x (1 + N) rows of logits), "
         "vLLM num_speculative_tokens (default: the MTP layers, or 5 printed for a draft model; a hybrid model keeps 1 + N state blocks a request)",
         "Draft tokens a step", "tokens", K::count, "8",
         [](Scenario& s, std::string_view t) { return apply_whole(s.engine.draft_max, t, 1, 1024); },
         [](const Scenario& s) { return show_whole_if(s.engine.draft_max, 0); },
         [](const Scenario& s) {
             const std::uint64_t k = draft_tokens(s);
             return k > 0 ? std::to_string(k) : std::string("5");  // vLLM without a drafter yet: a draft model's
         },
         nullptr, "3", "The drafted tokens' logits rows (llama.cpp) and, under vLLM, a hybrid model's state blocks."}),
        for_engine(E::drafter, {"mtp", "[BOOL]", "the model's own MTP layers draft (llama.cpp --spec-type draft-mtp: Qwen3-Next, Qwen3.5; vLLM's mtp speculative config: "
         "those and DeepSeek-V3/R1, GLM-4.5): they load, with their KV cache",
         "MTP drafting", "", K::flag, "true",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.mtp, t); },
         [](const Scenario& s) { return s.engine.mtp ? std::string("true") : std::string(); }, nullptr, nullptr, "",
         "The MTP layers the engine otherwise leaves in the file, with their KV cache."}),
        for_engine(E::llama_cpp, {"mmproj", "[BOOL|FILE]",
         "llama.cpp --mmproj FILE: load the model's vision projector with its own compute buffer (true: an f16 file of the model's tower; "
         "a path: that mmproj GGUF's header, its tower and bytes; on the page, drop the file)",
         "Vision projector (--mmproj)", "", K::flag, "true",
         [](Scenario& s, std::string_view t) {
             // A file read for it is named in the state (a link cannot carry the file): its own name keeps it; a
             // name without the file is refused, never priced as the model's f16 tower.
             if (s.engine.mmproj_file && trim(t) == s.engine.mmproj_file->name) return (s.engine.mmproj = true, std::string());
             std::string problem = apply_bool(s.engine.mmproj, t);
             if (!problem.empty())
                 return problem + " (a projector file is not carried by a link or a saved state: drop the file on the page, or give --mmproj FILE)";
             if (!s.engine.mmproj) s.engine.mmproj_file.reset();  // off: a file read for it goes too
             return problem;
         },
         [](const Scenario& s) {
             return !s.engine.mmproj ? std::string() : s.engine.mmproj_file ? s.engine.mmproj_file->name : std::string("true");
         },
         nullptr, nullptr, "",
         "The vision tower's file: its f16 weights and its compute buffer for one image, on GPU 0."}),
        for_engine(E::llama_cpp, {"mmproj-offload", "[BOOL]", "llama.cpp puts the projector on the GPU (default true; false = --no-mmproj-offload: host RAM)",
         "Projector on the GPU", "", K::flag, "false",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.mmproj_offload, t); },
         [](const Scenario& s) { return s.engine.mmproj_offload ? std::string() : std::string("false"); },
         [](const Scenario&) { return std::string("true"); }, nullptr, "",
         "false = --no-mmproj-offload: the projector and its graph stay in host RAM."}),
        for_engine(E::llama_cpp, {"image-min-tokens", "N|auto", "llama.cpp --image-min-tokens: the fewest tokens an image takes under the towers mtmd resizes itself (Qwen-VL, Pixtral, Gemma 4); default auto: the model's (Ollama: 1,024 for Qwen-VL)",
         "Image min tokens", "tokens or auto", K::text, "1024",
         [](Scenario& s, std::string_view t) { return apply_image_tokens(s.engine.image_min_tokens, t); },
         [](const Scenario& s) { return show_whole_if(s.engine.image_min_tokens, 0); },
         [](const Scenario&) { return std::string("auto"); }, nullptr, "auto",
         "Qwen-VL, Pixtral and Gemma 4 scale a smaller image up to this many tokens."}),
        for_engine(E::llama_cpp, {"image-max-tokens", "N|auto", "llama.cpp --image-max-tokens: the most tokens an image takes under those towers (default auto: the model's, Qwen-VL 4,096, Pixtral 1,024, Gemma 4 280)",
         "Image max tokens", "tokens or auto", K::text, "1024",
         [](Scenario& s, std::string_view t) { return apply_image_tokens(s.engine.image_max_tokens, t); },
         [](const Scenario& s) { return show_whole_if(s.engine.image_max_tokens, 0); },
         [](const Scenario&) { return std::string("auto"); }, nullptr, "auto",
         "A larger image is scaled down to this many tokens."}),
        for_engine(E::llama_cpp, {"fit-target", "MiB|auto", "llama.cpp --fit-target: MiB --fit keeps free on every GPU (default auto: 1024; Ollama: the projector's weights + 1024); under Ollama, LLAMA_ARG_FIT_TARGET",
         "Fit margin (--fit-target)", "MiB or auto", K::text, "2048",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             std::uint64_t mib = 0;
             if (w.empty() || w == "auto") return (s.engine.fit_target_set = false, s.engine.fit_target_mib = 0, std::string());
             std::string problem = apply_whole(mib, w, 0, 1u << 20);
             if (problem.empty()) s.engine.fit_target_set = true, s.engine.fit_target_mib = mib;
             return problem;
         },
         [](const Scenario& s) { return s.engine.fit_target_set ? std::to_string(s.engine.fit_target_mib) : std::string(); },
         [](const Scenario&) { return std::string("auto"); }, nullptr, "auto",
         "What --fit leaves free on each GPU when it places layers and shortens the context."}),
        for_engine(E::every, {"ram", "SIZE", "system memory for the host's verdict (weights left on the CPU, experts, KV, host buffers): 64GiB",
         "System RAM", "GB or GiB", K::text, "64GiB",
         [](Scenario& s, std::string_view t) {
             const std::string w = catalogue_key(t);
             if (w.empty() || w == "0" || w == "none") return (s.engine.ram_bytes = 0, std::string());
             return read_memory_size(s.engine.ram_bytes, w);
         },
         [](const Scenario& s) { return s.engine.ram_bytes == 0 ? std::string() : show_size(s.engine.ram_bytes); }, nullptr, nullptr,
         "64GiB", "What stays in system memory is judged against this; memory-mapped weights count once."}),
        for_engine(E::vllm, {"gpu-util", "F", "vLLM --gpu-memory-utilization: the share of each GPU vLLM takes (default 0.9)",
         "GPU memory utilization", "fraction", K::number, "0.8",
         apply_gpu_util, [](const Scenario& s) { return s.engine.gpu_util.is_zero() ? std::string() : format_decimal(s.engine.gpu_util); },
         [](const Scenario&) { return std::string("0.9"); }, nullptr, "0.9",
         "vLLM takes this share of each GPU; what the weights and the profile run leave of it is the KV pool."}),
        for_engine(E::vllm, {"max-num-seqs", "N", "vLLM --max-num-seqs (default 256; 1024 on a GPU of 70 GiB or more that is not an A100)",
         "Max sequences (vLLM)", "sequences", K::count, "64",
         [](Scenario& s, std::string_view t) { return apply_whole(s.engine.max_num_seqs, t, 1, kMaxSlots); },
         [](const Scenario& s) { return show_whole_if(s.engine.max_num_seqs, 0); }, nullptr, nullptr, "256",
         "Default 256; 1024 on a GPU of 70 GiB or more that is not an A100."}),
        for_engine(E::vllm, {"max-batched-tokens", "T", "vLLM --max-num-batched-tokens: the profile run's tokens (default 2048; 8192 on a GPU of 70 GiB or more that is not an A100)",
         "Max batched tokens (vLLM)", "tokens", K::count, "4096",
         [](Scenario& s, std::string_view t) { return apply_engine_tokens(s.engine.max_batched_tokens, t, 1); },
         [](const Scenario& s) { return show_whole_if(s.engine.max_batched_tokens, 0); }, nullptr, nullptr, "2048",
         "The profile run's tokens: its activation peak follows this, not the context."}),
        for_engine(E::vllm, {"block-size", "N", "vLLM --block-size: tokens per KV block (default 16)",
         "KV block size (vLLM)", "tokens", K::count, "32",
         [](Scenario& s, std::string_view t) {
             std::uint64_t v = 0;
             const std::string error = apply_whole(v, t, 1, 256);
             if (!error.empty()) return error;
             if ((v & (v - 1)) != 0) return std::string("must be a power of two (1 to 256)");
             s.engine.block_size = v;
             return std::string();
         },
         [](const Scenario& s) { return show_whole_if(s.engine.block_size, 0); },
         [](const Scenario&) { return std::string("16"); }, nullptr, "16", "Tokens per KV block; the pool is counted in blocks."}),
        for_engine(E::vllm, {"enforce-eager", "[BOOL]", "vLLM --enforce-eager: no CUDA graphs",
         "Enforce eager (no CUDA graphs)", "", K::flag, "true",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.enforce_eager, t); },
         [](const Scenario& s) { return s.engine.enforce_eager ? std::string("true") : std::string(); }, nullptr, nullptr, "",
         "No CUDA graphs: saves their memory (our estimate 0.5 GiB), runs slower."}),
        for_engine(E::vllm, {"disable-hybrid-kv-cache-manager", "[BOOL]", "vLLM --disable-hybrid-kv-cache-manager: sliding-window layers keep the whole context",
         "Disable the hybrid KV-cache manager", "", K::flag, "true",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.hybrid_kv_off, t); },
         [](const Scenario& s) { return s.engine.hybrid_kv_off ? std::string("true") : std::string(); }, nullptr, nullptr, "",
         "Sliding-window layers keep the whole context in every KV block instead of their window."}),
        for_engine(E::vllm, {"dp", "N", "vLLM --data-parallel-size: engines of tp x pp GPUs each; a MoE model's experts split over tp x dp (default 1)",
         "Data parallel (vLLM)", "replicas", K::count, "2",
         [](Scenario& s, std::string_view t) { return apply_whole(s.engine.data_parallel, t, 1, kMaxDataParallel); },
         [](const Scenario& s) { return show_whole_if(s.engine.data_parallel, 0); }, nullptr, nullptr, "1", "Each replica has its own KV pool."}),
        for_engine(E::vllm, {"expert-parallel", "[BOOL]", "vLLM --enable-expert-parallel: whole experts on each GPU, not a slice of every one",
         "Expert parallel (vLLM)", "", K::flag, "true",
         [](Scenario& s, std::string_view t) { return apply_bool(s.engine.expert_parallel, t); },
         [](const Scenario& s) { return s.engine.expert_parallel ? std::string("true") : std::string(); }, nullptr, nullptr, "", ""}),
    };
}

}  // namespace llm_memory

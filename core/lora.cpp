// LoRA counting over the architecture's linear list. Matching mirrors PEFT's target_modules: a module
// is targeted when its last path component equals a target name.
#include "lora.hpp"

#include <initializer_list>

#include "quantity.hpp"

namespace llm_memory {
namespace {


bool valid_target_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '*';
}

bool has_target(const std::vector<LinearLayer>& linears, const std::string& name) {
    for (const LinearLayer& linear : linears)
        if (linear.target_name == name) return true;
    return false;
}

}  // namespace

Expected<std::vector<std::string>> parse_lora_targets(std::string_view text) {
    std::vector<std::string> out;
    const std::string_view all = trim(text);
    if (all.empty()) return Error{"is empty (e.g. q,v or q,k,v,o,gate,up,down or all-linear)"};
    std::size_t start = 0;
    while (start <= all.size()) {
        std::size_t end = all.find(',', start);
        if (end == std::string_view::npos) end = all.size();
        std::string item;
        for (char c : trim(all.substr(start, end - start)))
            item.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
        start = end + 1;
        if (item.empty()) return Error{"has an empty name (write names separated by commas: q,v)"};
        for (char c : item)
            if (!valid_target_char(c)) return Error{"\"" + printable_excerpt(item, 40) + "\" is not a module name"};
        bool seen = false;
        for (const std::string& existing : out) seen = seen || existing == item;
        if (!seen) out.push_back(item);
        if (end == all.size()) break;
    }
    return out;
}

Expected<LoraCount> lora_trainable_count(const std::vector<LinearLayer>& linears, std::uint64_t rank,
                                         const std::vector<std::string>& targets) {
    if (rank == 0) return Error{"lora-rank", "must be greater than zero"};
    if (rank > kMaxLoraRank) return Error{"lora-rank", too_large(kMaxLoraRank)};
    if (targets.empty()) return Error{"lora-targets", "is empty"};
    // Resolve each target to a module name of this model.
    std::vector<std::string> names;
    bool all_linear = false;
    for (const std::string& target : targets) {
        if (target == "all-linear" || target == "all_linear") {
            all_linear = true;
            continue;
        }
        std::string name = target;
        if (has_target(linears, target + "_proj")) name = target + "_proj";
        // Fused projections: q, k or v mean the model's fused QKV module and gate or up its fused
        // gate_up_proj, as PEFT's per-model default targets do (gpt2: c_attn, falcon: query_key_value,
        // phi3: qkv_proj; peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING).
        const bool qkv = target == "q" || target == "k" || target == "v";
        for (const char* fused : {"qkv_proj", "query_key_value", "c_attn"})
            if (qkv && !has_target(linears, name) && has_target(linears, fused)) name = fused;
        if ((target == "gate" || target == "up") && !has_target(linears, name) && has_target(linears, "gate_up_proj"))
            name = "gate_up_proj";
        if (!has_target(linears, name)) {
            std::string known;
            for (const LinearLayer& linear : linears) {
                if (known.find(linear.target_name) != std::string::npos) continue;
                if (!known.empty()) known += ", ";
                known += linear.target_name;
            }
            return Error{"lora-targets", "\"" + printable_excerpt(target, 40) + "\" matches no linear layer of this model (it has " +
                         known + ")"};
        }
        bool seen = false;
        for (const std::string& existing : names) seen = seen || existing == name;
        if (!seen) names.push_back(name);
    }
    LoraCount count;
    u128 total = 0;
    for (const LinearLayer& linear : linears) {
        bool targeted = all_linear;
        for (const std::string& name : names) targeted = targeted || linear.target_name == name;
        if (!targeted) continue;
        const u128 per_module = static_cast<u128>(rank) * (static_cast<u128>(linear.in_features) + linear.out_features);
        const u128 added = per_module * linear.instance_count();
        total += added;
        if (total > kMaxParamCount) return Error{"lora-rank", "the adapter would exceed 10^15 parameters"};
        LoraModule* module = nullptr;
        for (LoraModule& existing : count.modules)
            if (existing.target_name == linear.target_name) module = &existing;
        if (module == nullptr) {
            count.modules.push_back({linear.target_name, 0, 0});
            module = &count.modules.back();
        }
        module->module_count += linear.instance_count();
        module->trainable_count += static_cast<std::uint64_t>(added);
        count.module_count += linear.instance_count();
    }
    count.trainable_count = static_cast<std::uint64_t>(total);
    return count;
}

bool is_output_projection(std::string_view target_name) {
    for (const char* name : {"o_proj", "out_proj", "dense", "c_proj", "down_proj", "fc2", "w2", "dense_4h_to_h"})
        if (target_name == name) return true;
    return false;
}

}  // namespace llm_memory

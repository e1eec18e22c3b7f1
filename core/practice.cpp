// Practice: the seed's exercises as data, generated exercises, and answer checking by recomputing each
// known wrong path with estimate() on a changed scenario. Text quotes the seed where the seed has words.
// Determinism: the generator uses splitmix64 on 64-bit integers only, so a seed number means one
// exercise everywhere.
//
// Sections: byte and format helpers · question and mistake tables · the seed's hints · generator
//   (splitmix64, unambiguous checks) · questions and their figures · right step · wrong paths (one recompute
//   per mistake) · check_answer and JSON · the seed's exercises · generate_exercise · find_exercise ·
//   mistake cards.
#include "practice.hpp"

#include "engines/engine.hpp"

#include <algorithm>
#include <iterator>

#include "json_writer.hpp"
#include "quantity.hpp"
#include "recipes.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "small_sort.hpp"
#include "split_mix64.hpp"

namespace llm_memory {
namespace {


constexpr const char* kMixedRecipe = "adamw-mixed";  // core/recipes: the mixed-precision AdamW convention

std::string count_text(std::uint64_t count) { return format_count_state(count); }
std::string gb(std::uint64_t bytes) { return format_gb(bytes); }
std::string dec(Decimal value) { return format_decimal(value); }
// "1 byte", "2 bytes", "0.5 bytes".
std::string bytes_text(Decimal value) { return dec(value) + (value == Decimal::from_int(1) ? " byte" : " bytes"); }

std::uint64_t scale_bytes(std::uint64_t bytes, std::uint64_t numerator, std::uint64_t denominator) {
    const u128 value = (static_cast<u128>(bytes) * numerator + denominator / 2) / denominator;
    return value > static_cast<u128>(~std::uint64_t{0}) ? ~std::uint64_t{0} : static_cast<std::uint64_t>(value);
}

const char* format_name(Decimal bytes_per_param) {
    switch (bytes_per_param.micros) {
        case 4 * Decimal::kScale: return "fp32";
        case 2 * Decimal::kScale: return "fp16/bf16";
        case 1 * Decimal::kScale: return "int8/fp8";
        case Decimal::kScale / 2: return "int4";
        default: return nullptr;
    }
}

std::string bytes_with_format(Decimal bytes_per_param) {
    const char* name = format_name(bytes_per_param);
    return dec(bytes_per_param) + (bytes_per_param.micros == Decimal::kScale ? " byte" : " bytes") +
           (name ? std::string(" (") + name + ")" : std::string());
}

// The seed's wrong bytes per parameter: the common formats, plus the bit count mistaken for bytes.
std::vector<Decimal> wrong_byte_candidates(Decimal actual) {
    std::vector<Decimal> out;
    const Decimal common[] = {Decimal::from_int(4), Decimal::from_int(2), Decimal::from_int(1), Decimal{Decimal::kScale / 2}};
    for (Decimal c : common)
        if (c != actual) out.push_back(c);
    const Decimal bits{actual.micros * 8};
    if (bits.micros <= kMaxBytesPerValueMicros && std::find(out.begin(), out.end(), bits) == out.end()) out.push_back(bits);
    return out;
}

std::string k_values_text(Decimal k) {
    return "k = " + dec(k) + (k == Decimal::from_int(3) ? " values (a gradient and two optimizer states)" : " values");
}

struct QuestionInfo {
    QuestionId id;
    const char* key;
    const char* title;
};

constexpr QuestionInfo kQuestions[] = {
    {QuestionId::weight, "weight", "Weight memory"},
    {QuestionId::inference, "inference", "Inference total"},
    {QuestionId::gradient_optimizer, "gradient-optimizer", "Gradient+optimizer memory"},
    {QuestionId::training, "training", "Training total"},
    {QuestionId::reduction, "reduction", "Reduction from freezing"},
    {QuestionId::mixed_precision_training, "mixed-precision-training", "Mixed-precision training total"},
    {QuestionId::llama_compute, "llama-compute", "llama.cpp compute buffer on GPU 0"},
    {QuestionId::vllm_need, "vllm-need", "What the run needs on a GPU under vLLM"},
    {QuestionId::llama_split_total, "llama-split-total", "The GPUs of a llama.cpp layer split together"},
};

struct MistakeInfo {
    MistakeId id;
    const char* key;
};

constexpr MistakeInfo kMistakes[] = {
    {MistakeId::weights_as_inference, "weights-as-inference"},
    {MistakeId::one_value_per_trainable, "one-value-per-trainable"},
    {MistakeId::freezing_removes_weights, "freezing-removes-weights"},
    {MistakeId::training_without_weights, "training-without-weights"},
    {MistakeId::overhead_on_training, "overhead-on-training"},
    {MistakeId::wrong_bytes_per_parameter, "wrong-bytes-per-parameter"},
    {MistakeId::compute_by_context, "compute-by-context"},
    {MistakeId::utilization_as_need, "utilization-as-need"},
    {MistakeId::one_compute_buffer, "one-compute-buffer"},
    {MistakeId::moe_active_for_memory, "moe-active-for-memory"},
    {MistakeId::drafter_kv_small, "drafter-kv-small"},
    {MistakeId::projector_as_file_size, "projector-as-file-size"},
    {MistakeId::gib_gb_mixup, "gib-gb-mixup"},
};

// The seed's four hints for its 7B exercise, word for word.
const std::vector<std::string>& seed_hints() {
    static const std::vector<std::string> kHints = {
        "Start with the weight memory formula: parameters multiplied by bytes per parameter.",
        "The inference total multiplies the weight memory by 1.2.",
        "For training, multiply the trainable parameter count by k and by b, and keep that result separate from the weights.",
        "Only the gradient and optimizer term depends on the trainable count; the weight memory stays the same.",
    };
    return kHints;
}

// True when two figures are too close to tell apart (within twice the tolerance).
bool too_close(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t high = std::max(a, b);
    const std::uint64_t low = std::min(a, b);
    return static_cast<u128>(high - low) * 100 <= static_cast<u128>(high) * (2 * kAnswerTolerancePercent);
}

// An exercise is unambiguous when, for each question, the right figure and the wrong paths with
// different mistakes are all at least twice the tolerance apart (one designed pair excepted).
bool unambiguous(const Exercise& exercise) {
    for (const PracticeQuestion& q : exercise.questions) {
        const Expected<Estimate> e = estimate(q.scenario);
        const Expected<std::vector<WrongPath>> paths = wrong_paths(q.id, q.scenario);
        if (!e || !paths) return false;
        const std::uint64_t right = question_bytes(q.id, *e);
        for (std::size_t i = 0; i < paths->size(); ++i) {
            if (too_close((*paths)[i].bytes, right)) return false;
            for (std::size_t j = i + 1; j < paths->size(); ++j) {
                const MistakeId a = (*paths)[i].mistake;
                const MistakeId b = (*paths)[j].mistake;
                // With frozen parameters, "freezing removes the weights" and "training without weights"
                // are the same arithmetic; check_answer names the seed's mistake and notes the other.
                const bool designed_pair = a == MistakeId::freezing_removes_weights && b == MistakeId::training_without_weights;
                if (a != b && !designed_pair && too_close((*paths)[i].bytes, (*paths)[j].bytes)) return false;
            }
        }
    }
    return true;
}

std::string question_prompt(QuestionId id, const Scenario& s, const Estimate& e) {
    const std::string nt = count_text(e.trainable_count);
    switch (id) {
        case QuestionId::weight: return "What is its weight memory?";
        case QuestionId::inference:
            return "What is its total inference memory with the overhead factor of " + dec(s.overhead_factor) + "?";
        case QuestionId::gradient_optimizer:
            return "With " + nt + " trainable parameters, k = " + dec(s.values_per_trainable) + " and " +
                   dec(s.bytes_per_value) + " bytes per value, how much gradient and optimizer memory is needed?";
        case QuestionId::training: return "What is the training total: weights plus gradient and optimizer memory?";
        case QuestionId::reduction:
            return "How much gradient and optimizer memory does training only " + nt + " parameters save, compared with training all " +
                   count_text(e.param_count) + "?";
        case QuestionId::mixed_precision_training:
            return "Now train the same " + nt + " parameters with mixed-precision AdamW, as most frameworks do: a bf16 gradient plus "
                   "fp32 master weights, Adam m and Adam v for each trainable parameter. What is the training total?";
        case QuestionId::llama_compute: return "What compute buffer does llama.cpp allocate on GPU 0?";
        case QuestionId::vllm_need:
            return "What does the run need on each GPU under vLLM: the weights, the activation peak, non-torch memory, CUDA graphs "
                   "and the KV cache of one request of max_model_len?";
        case QuestionId::llama_split_total: return "What do the GPUs of llama.cpp's layer split hold together?";
    }
    return {};
}

PracticeQuestion make_question(QuestionId id, const Scenario& s, std::string prompt) {
    PracticeQuestion q;
    q.id = id;
    q.scenario = question_scenario(id, s);
    q.prompt = std::move(prompt);
    const Expected<std::string> step = right_step(id, s);
    q.reveal = step ? *step : std::string();
    return q;
}

}  // namespace

const std::vector<QuestionId>& all_questions() {
    // The engine questions only where the engine models are (engines_in_build).
    static const std::vector<QuestionId> kAll = [] {
        std::vector<QuestionId> out = {QuestionId::weight,   QuestionId::inference, QuestionId::gradient_optimizer,
                                       QuestionId::training, QuestionId::reduction, QuestionId::mixed_precision_training};
        if (engines_in_build())
            out.insert(out.end(), {QuestionId::llama_compute, QuestionId::vllm_need, QuestionId::llama_split_total});
        return out;
    }();
    return kAll;
}

const std::vector<MistakeId>& all_mistakes() {
    static const std::vector<MistakeId> kAll = [] {
        std::vector<MistakeId> out;
        for (const MistakeInfo& m : kMistakes) out.push_back(m.id);
        return out;
    }();
    return kAll;
}

const char* question_key(QuestionId id) {
    for (const QuestionInfo& q : kQuestions)
        if (q.id == id) return q.key;
    return "";
}

const char* question_title(QuestionId id) {
    for (const QuestionInfo& q : kQuestions)
        if (q.id == id) return q.title;
    return "";
}

Expected<QuestionId> parse_question_id(std::string_view key) {
    const std::string_view t = trim(key);
    for (const QuestionInfo& q : kQuestions) {
        if (t != q.key) continue;
        const bool engine_question = q.id == QuestionId::llama_compute || q.id == QuestionId::vllm_need || q.id == QuestionId::llama_split_total;
        if (engine_question && !engines_in_build()) return Error{std::string("question: ") + q.key + ": " + engines_left_out_note()};
        return q.id;
    }
    const std::string shown = printable_excerpt(t, 40);
    return Error{"question: \"" + shown +
                 "\" is not one of weight, inference, gradient-optimizer, training, reduction, mixed-precision-training, "
                 "llama-compute, vllm-need, llama-split-total"};
}

const char* mistake_key(MistakeId id) {
    for (const MistakeInfo& m : kMistakes)
        if (m.id == id) return m.key;
    return "";
}

std::optional<MistakeId> parse_mistake_id(std::string_view key) {
    for (const MistakeInfo& m : kMistakes)
        if (key == m.key) return m.id;
    return std::nullopt;
}

std::uint64_t question_bytes(QuestionId id, const Estimate& e) {
    switch (id) {
        case QuestionId::weight: return e.weight_bytes;
        case QuestionId::inference: return e.inference_bytes;
        case QuestionId::gradient_optimizer: return e.gradient_optimizer_bytes;
        case QuestionId::training: return e.training_bytes;
        case QuestionId::reduction: return e.reduction_bytes;
        case QuestionId::mixed_precision_training: return e.training_bytes;
        case QuestionId::llama_compute:
        case QuestionId::vllm_need:
        case QuestionId::llama_split_total: return 0;  // the engine's figure: question_figure
    }
    return 0;
}

namespace {

bool engine_question(QuestionId id) {
    return id == QuestionId::llama_compute || id == QuestionId::vllm_need || id == QuestionId::llama_split_total;
}

const EngineDevice* device_named(const EngineEstimate& e, const char* name) {
    for (const EngineDevice& d : e.devices)
        if (d.device == name) return &d;
    return nullptr;
}

const EngineTerm* term_keyed(const EngineDevice& d, const char* key) {
    for (const EngineTerm& t : d.terms)
        if (t.key == key) return &t;
    return nullptr;
}

// The GPUs of an engine estimate that hold layers (a non-zero model or compute buffer).
std::vector<const EngineDevice*> busy_gpus(const EngineEstimate& e) {
    std::vector<const EngineDevice*> out;
    for (const EngineDevice& d : e.devices)
        if (d.is_gpu && (d.weights_bytes > 0 || d.compute_bytes > 0)) out.push_back(&d);
    return out;
}

}  // namespace

// An engine question's figure and the sentence that derives it.
Expected<EngineAnswer> engine_answer(QuestionId id, const Scenario& s) {
    const char* key = question_key(id);
    if (id == QuestionId::vllm_need) {
        // What the run needs: the engine's terms without a pool, i.e. with the KV cache of one request.
        Scenario need = s;
        need.gpu.clear();
        need.gpu_memory_bytes = 0;
        const Expected<EngineEstimate> e = engine_estimate(need);
        if (!e) return Error(key, e.error());
        const EngineDevice* d = device_named(*e, "gpu0");
        if (d == nullptr) return Error(key, "the estimate has no GPU 0");
        std::string parts;
        for (const EngineTerm& t : d->terms) parts += (parts.empty() ? "" : " + ") + t.label + " " + gb(t.bytes);
        return EngineAnswer{d->total_bytes, "On GPU 0: " + parts + " = " + gb(d->total_bytes) + "."};
    }
    const Expected<EngineEstimate> e = engine_estimate(s);
    if (!e) return Error(key, e.error());
    const std::vector<const EngineDevice*> gpus = busy_gpus(*e);
    if (id == QuestionId::llama_compute) {
        const EngineDevice* d = device_named(*e, "gpu0");
        if (d == nullptr || d->compute_bytes == 0) return Error(key, "needs layers on a GPU: give --ngl all (or a number of layers)");
        const EngineTerm* t = term_keyed(*d, "compute_buffer");
        return EngineAnswer{d->compute_bytes, "GPU 0's compute buffer is sized for one u-batch: " + (t ? t->steps : std::string()) + " = " +
                                                  gb(d->compute_bytes) + "."};
    }
    if (gpus.size() < 2) return Error(key, "needs a layer split over 2 GPUs or more: give --gpus 2");
    std::uint64_t total = 0;
    std::string parts;
    for (const EngineDevice* d : gpus) {
        total += d->total_bytes;
        parts += (parts.empty() ? "" : " + ") + d->label + " " + gb(d->total_bytes) + " (with its own compute buffer of " + gb(d->compute_bytes) + ")";
    }
    std::string projector;  // the vision projector (--mmproj) on a GPU: its weights and its own compute buffer
    for (const EngineDevice* d : gpus) {
        const EngineTerm* w = term_keyed(*d, "mmproj_buffer");
        const EngineTerm* c = term_keyed(*d, "mmproj_compute_buffer");
        if (w != nullptr && c != nullptr)
            projector += " " + d->label + " holds the vision projector: " + gb(w->bytes) + " of weights + " + gb(c->bytes) +
                         " of its own compute buffer = " + gb(w->bytes + c->bytes) + ".";
    }
    return EngineAnswer{total, parts + " = " + gb(total) + "." + projector};
}

Expected<std::uint64_t> question_figure(QuestionId id, const Scenario& scenario) {
    const Scenario s = question_scenario(id, scenario);
    if (engine_question(id)) {
        const Expected<EngineAnswer> a = engine_answer(id, s);
        if (!a) return a.failure();
        return a->bytes;
    }
    const Expected<Estimate> e = estimate(s);
    if (!e) return e.failure();
    return question_bytes(id, *e);
}

Scenario question_scenario(QuestionId id, const Scenario& scenario) {
    Scenario s = scenario;
    if (id == QuestionId::mixed_precision_training) s.recipe = kMixedRecipe;
    if ((id == QuestionId::llama_compute || id == QuestionId::llama_split_total) && s.engine.kind != EngineKind::ollama)
        s.engine.kind = EngineKind::llama_cpp;
    if (id == QuestionId::vllm_need) s.engine.kind = EngineKind::vllm;
    return s;
}

// The training total's parts beyond the weights and the gradient+optimizer memory (the LoRA adapter's
// weights, any later term), from the terms table: " + 8.39 MB of LoRA adapter weights (adapter parameters
// × 2 bytes)". Empty when the total has only those two.
std::string other_training_parts(const Estimate& e) {
    std::string out;
    for (const MemoryTerm* t : parts_of(e, Total::training)) {
        if (t->key == "weight" || t->key == "gradient_optimizer") continue;
        out += " + " + format_bytes_decimal(t->bytes) + " of " + mid_sentence_label(t->label) + " (" + term_formula(e, *t) + ")";
    }
    return out;
}

// N_trainable times its bytes: the seed's "× k × b", or with fp32 LoRA adapters (PEFT's
// autocast_adapter_dtype) the fp32 values each adapter parameter stores: "× (4 + 4 + 4) bytes (fp32 adapter)".
std::string trainable_states_text(const Estimate& e, const std::string& nt, const std::string& k, const std::string& sb) {
    if (!e.adapter_fp32) return nt + " × " + k + " × " + sb;
    std::string sum;
    for (const TrainingComponent& c : e.training_components)
        sum += (sum.empty() ? "" : " + ") + format_pico_bytes(c.bytes_per_trainable_pico);
    return nt + " × (" + sum + ") bytes, fp32 adapter";
}

namespace {

// The right step of a non-engine question on its question scenario `s`, whose estimate is `e`.
Expected<std::string> right_step_from(QuestionId id, const Scenario& s, const Estimate& e) {
    const std::string n = count_text(e.param_count);
    const std::string nt = count_text(e.trainable_count);
    const std::string b = bytes_text(s.bytes_per_param);
    const std::string k = dec(s.values_per_trainable);
    const std::string sb = bytes_text(s.bytes_per_value);
    switch (id) {
        case QuestionId::weight: return n + " × " + b + " = " + gb(e.weight_bytes) + ".";
        case QuestionId::inference:
            return n + " × " + b + " = " + gb(e.weight_bytes) + ", and " + gb(e.weight_bytes) + " × " + dec(s.overhead_factor) +
                   " = " + gb(e.inference_bytes) + ".";
        case QuestionId::gradient_optimizer:
            if (e.adapter_fp32) return trainable_states_text(e, nt + " trainable", k, sb) + " = " + gb(e.gradient_optimizer_bytes) + ".";
            return nt + " trainable × " + k + " values × " + sb + " = " + gb(e.gradient_optimizer_bytes) + ".";
        case QuestionId::training:
            return gb(e.weight_bytes) + " of weights (" + n + " × " + b + ") + " + gb(e.gradient_optimizer_bytes) +
                   " of gradient+optimizer memory (" + trainable_states_text(e, nt, k, sb) + ")" + other_training_parts(e) + " = " +
                   gb(e.training_bytes) + ".";
        case QuestionId::reduction:
            return n + " × " + k + " × " + sb + " = " + gb(e.full_gradient_optimizer_bytes) + " with every parameter trainable, " +
                   trainable_states_text(e, nt, k, sb) + " = " + gb(e.gradient_optimizer_bytes) + " now: " +
                   gb(e.full_gradient_optimizer_bytes) + " − " + gb(e.gradient_optimizer_bytes) + " = " + gb(e.reduction_bytes) +
                   "; the weights keep their " + gb(e.weight_bytes) + ".";
        case QuestionId::mixed_precision_training: {
            std::string parts;
            std::uint64_t pico = 0;
            for (const TrainingComponent& c : e.training_components) {
                parts += (parts.empty() ? "" : " + ") + c.name + " " + format_pico_bytes(c.bytes_per_trainable_pico);
                pico += c.bytes_per_trainable_pico;
            }
            return gb(e.weight_bytes) + " of weights (" + n + " × " + b + ") + " + gb(e.gradient_optimizer_bytes) +
                   " of gradient and optimizer state (" + nt +
                   " trainable × " + format_pico_bytes(pico) + " bytes: " + parts + ")" + other_training_parts(e) + " = " +
                   gb(e.training_bytes) + ".";
        }
        case QuestionId::llama_compute:
        case QuestionId::vllm_need:
        case QuestionId::llama_split_total: break;  // answered by engine_answer
    }
    return Error{"question: unknown"};
}

}  // namespace

Expected<std::string> right_step(QuestionId id, const Scenario& scenario) {
    const Scenario s = question_scenario(id, scenario);
    if (engine_question(id)) {
        const Expected<EngineAnswer> a = engine_answer(id, s);
        if (!a) return a.failure();
        return a->step;
    }
    const Expected<Estimate> result = estimate(s);
    if (!result) return Error{result.error()};
    return right_step_from(id, s, *result);
}

bool within_tolerance(std::uint64_t answer_bytes, std::uint64_t target_bytes) {
    const std::uint64_t diff = answer_bytes > target_bytes ? answer_bytes - target_bytes : target_bytes - answer_bytes;
    return static_cast<u128>(diff) * 100 <= static_cast<u128>(target_bytes) * kAnswerTolerancePercent;
}

// The engines' three wrong paths, each recomputed through the engine model on a changed scenario.
Expected<std::vector<WrongPath>> engine_wrong_paths(QuestionId id, const Scenario& s) {
    const Expected<EngineAnswer> right = engine_answer(id, s);
    if (!right) return right.failure();
    std::vector<WrongPath> paths;
    auto add = [&](MistakeId mistake, std::uint64_t bytes, std::string what) {
        if (within_tolerance(bytes, right->bytes)) return;
        paths.push_back({mistake, bytes, std::move(what), WrongPath::WrittenIn::any});
    };
    if (id == QuestionId::llama_compute && s.context_tokens > 0) {
        Scenario by_context = s;
        by_context.engine.ubatch_tokens = s.context_tokens;
        by_context.engine.nbatch_tokens = std::max<std::uint64_t>(s.context_tokens, s.engine.nbatch_tokens);
        const Expected<EngineAnswer> wrong = engine_answer(id, by_context);
        if (wrong)
            add(MistakeId::compute_by_context, wrong->bytes,
                "That sizes the compute buffer by the context (" + format_count_exact(s.context_tokens) +
                    " tokens). llama.cpp reserves it for one u-batch: n_ubatch tokens (-ub, 512 by default), whatever the context.");
    }
    if (id == QuestionId::vllm_need) {
        const Expected<EngineEstimate> e = engine_estimate(s);
        if (e) {
            for (const EngineDevice& d : e->devices) {
                if (d.device != "gpu0" || !d.has_pool) continue;
                const std::string why = "That is vLLM's share of the GPU (total × gpu_memory_utilization), which it takes whatever the model "
                                        "needs and fills with KV blocks; the run needs " + gb(right->bytes) + ".";
                const std::uint64_t util_micros = s.engine.gpu_util.micros > 0 ? static_cast<std::uint64_t>(s.engine.gpu_util.micros) : 900000;
                add(MistakeId::utilization_as_need, static_cast<std::uint64_t>(static_cast<u128>(d.capacity_bytes) * util_micros / 1000000), why);
                add(MistakeId::utilization_as_need, d.reserved_bytes, why);
                add(MistakeId::utilization_as_need, d.total_bytes, why);
                add(MistakeId::utilization_as_need, d.capacity_bytes, why);
            }
        }
    }
    if (id == QuestionId::llama_split_total) {
        const Expected<EngineEstimate> e = engine_estimate(s);
        if (e) {
            const std::vector<const EngineDevice*> gpus = busy_gpus(*e);
            std::uint64_t extra = 0;
            for (std::size_t i = 1; i < gpus.size(); ++i) extra += gpus[i]->compute_bytes;
            if (extra > 0 && extra < right->bytes)
                add(MistakeId::one_compute_buffer, right->bytes - extra,
                    "That counts one compute buffer for the whole split. On a layer split every GPU holds its own (" +
                        std::to_string(gpus.size()) + " buffers here), each sized for one u-batch.");
            // The drafter's KV cache (-md) taken as small: it is a second context at the target's full n_ctx
            // (Quartermaster#24: 0.55 GiB measured for an MTP drafter priced as a 0.15 GB pad).
            for (const EngineDevice* d : gpus)
                if (const EngineTerm* t = term_keyed(*d, "draft_kv_buffer"); t != nullptr && t->bytes > 0 && t->bytes < right->bytes)
                    add(MistakeId::drafter_kv_small, right->bytes - t->bytes,
                        "That leaves out the drafter's KV cache (" + gb(t->bytes) + " on " + d->label + "). llama.cpp gives the draft model a "
                        "second context at the target's full context (" + format_count_exact(s.context_tokens) + " tokens) in its own cache "
                        "type (-ctkd/-ctvd), not a small pad.");
            // The vision projector (--mmproj) priced as its file: mtmd also reserves the clip graph's own compute
            // buffer for one image (gguf-parser-go#44: 1,132 MiB measured for Gemma 3's SigLIP, flash attention off).
            for (const EngineDevice* d : gpus)
                if (const EngineTerm* t = term_keyed(*d, "mmproj_compute_buffer"); t != nullptr && t->bytes > 0 && t->bytes < right->bytes) {
                    const EngineTerm* w = term_keyed(*d, "mmproj_buffer");
                    const std::uint64_t file = w != nullptr ? w->bytes : 0;
                    const std::uint64_t held = file + t->bytes;
                    add(MistakeId::projector_as_file_size, right->bytes - t->bytes,
                        "That prices the vision projector (--mmproj) as its file: " + gb(file) + " of f16 weights. llama.cpp also reserves "
                        "the projector's own compute buffer for one image (" + gb(t->bytes) + " on " + d->label + "), so the projector holds " +
                            gb(file) + " + " + gb(t->bytes) + " = " + gb(held) + ", and its file is " +
                            std::to_string(scale_bytes(file, 100, held)) + "% of that.");
                }
        }
    }
    return paths;
}

namespace {

// The wrong paths of a non-engine question on its question scenario `s`, whose estimate is `e`.
std::vector<WrongPath> wrong_paths_from(QuestionId id, const Scenario& s, const Estimate& e) {
    const std::uint64_t right = question_bytes(id, e);
    const bool frozen = e.trainable_count < e.param_count;
    const bool mixed = id == QuestionId::mixed_precision_training;
    const bool total = id == QuestionId::training || mixed;  // a training total
    const bool training_kind = id == QuestionId::gradient_optimizer || total || id == QuestionId::reduction;
    const std::string n = count_text(e.param_count);
    const std::string nt = count_text(e.trainable_count);
    // "The training total without the weights", from the memory-terms table (every training term not a weight).
    const std::uint64_t without_weights = training_without_weights_bytes(e);
    std::vector<WrongPath> paths;

    auto add = [&](MistakeId mistake, std::uint64_t bytes, std::string what,
                   WrongPath::WrittenIn written_in = WrongPath::WrittenIn::any) {
        if (within_tolerance(bytes, right)) return;  // this slip happens to give the right figure here
        paths.push_back({mistake, bytes, std::move(what), written_in});
    };
    // The question's figure for the scenario changed by `change`, via the estimator; nullopt if invalid.
    auto recompute = [&](auto change) -> std::optional<Estimate> {
        Scenario changed = s;
        changed.model = nullptr;  // the changed scenario is no longer the named model
        change(changed);
        const Expected<Estimate> r = estimate(changed);
        if (!r) return std::nullopt;
        return *r;
    };
    // The same model cut down to its trainable parameters, as if frozen ones were gone.
    auto trainable_only = [&]() {
        return recompute([&](Scenario& c) {
            c.param_count = e.trainable_count;
            c.trainable = TrainableSpec::all_params();
        });
    };

    // 1. The seed's first mistake: the weights reported as the inference total.
    if (id == QuestionId::inference)
        add(MistakeId::weights_as_inference, e.weight_bytes,
            "That is the weight memory, not the inference total: the overhead factor of " + dec(s.overhead_factor) +
                " is applied to the weights before the inference total is known.");

    // 2. One value per trainable parameter (k = 1).
    if (training_kind && s.values_per_trainable != Decimal::from_int(1)) {
        if (auto k1 = recompute([](Scenario& c) { c.values_per_trainable = Decimal::from_int(1); }))
            add(MistakeId::one_value_per_trainable, question_bytes(id, *k1),
                "That counts one value per trainable parameter (N_trainable × b); training stores " +
                    k_values_text(s.values_per_trainable) + " per trainable parameter, the k term of the formula.");
    }

    // 3. Freezing taken to remove weight memory (only when some parameters are frozen).
    if (frozen) {
        const std::string keep = "the model still has all " + n + " parameters, so the weights still need their full " +
                                 gb(e.weight_bytes) + ".";
        if (id == QuestionId::weight || id == QuestionId::inference) {
            if (auto cut = trainable_only())
                add(MistakeId::freezing_removes_weights, question_bytes(id, *cut),
                    "That counts weights only for the " + nt + " trainable parameters, as if freezing removed the rest: " + keep);
        }
        if (total) {
            add(MistakeId::freezing_removes_weights, without_weights,
                "That leaves the weights out, as if freezing removed them: " + keep);
            if (auto cut = trainable_only())
                add(MistakeId::freezing_removes_weights, cut->weight_bytes + without_weights,
                    "That counts weights only for the " + nt + " trainable parameters, as if freezing removed the rest: " + keep);
        }
        if (id == QuestionId::reduction) {
            add(MistakeId::freezing_removes_weights, e.full_training_bytes - without_weights,
                "That is the fall of the training total from " + gb(e.full_training_bytes) + " to " + gb(without_weights) +
                    ", as if freezing removed the weights: " + keep);
            if (auto cut = trainable_only())
                add(MistakeId::freezing_removes_weights, e.full_training_bytes - (cut->weight_bytes + without_weights),
                    "That also takes the frozen parameters' weights off the training total, as if freezing removed them: " + keep);
        }
    }

    // A mixture of experts counted by its active parameters (what one token uses) instead of every expert:
    // the bug llmfit shipped twice (llmfit#230: 33 GB shown for a model that needs 70-75 GB; #497).
    if ((id == QuestionId::weight || id == QuestionId::inference) && s.model && s.model->counts.active_count > 0 &&
        s.model->counts.active_count < s.model->counts.total_count) {
        const std::uint64_t active = s.model->counts.active_count;
        if (auto cut = recompute([&](Scenario& c) {
                c.param_count = active;
                c.trainable = TrainableSpec::all_params();
            }))
            add(MistakeId::moe_active_for_memory, question_bytes(id, *cut),
                "That counts the " + count_text(active) + " parameters one token uses (its routed experts). Memory holds every expert: all " + n +
                    " parameters are loaded, whichever experts a token picks.");
    }

    // 4. The weights left out of the training total.
    if (total)
        add(MistakeId::training_without_weights, without_weights,
            "That is the gradient+optimizer memory alone; the training total adds it to the weight memory (" +
                gb(e.weight_bytes) + "), which stays in memory while the model trains.");

    // 5. The inference overhead factor applied to training figures.
    if (s.overhead_factor != Decimal::from_int(1)) {
        const std::string only = "the overhead factor of " + dec(s.overhead_factor) +
                                 " belongs to the inference total only; training is weights plus gradient+optimizer memory.";
        if (total) {
            add(MistakeId::overhead_on_training, scale_bytes(e.training_bytes, s.overhead_factor.micros, Decimal::kScale),
                "That multiplies the training total by the overhead factor; " + only);
            add(MistakeId::overhead_on_training, e.inference_bytes + without_weights,
                "That starts from the inference total (" + gb(e.inference_bytes) + ") instead of the weight memory; " + only);
        }
        if (id == QuestionId::gradient_optimizer)
            add(MistakeId::overhead_on_training, scale_bytes(e.gradient_optimizer_bytes, s.overhead_factor.micros, Decimal::kScale),
                "That multiplies the gradient+optimizer memory by the overhead factor; " + only);
    }

    // 6. The wrong bytes per parameter (weights) or per stored value (gradient and optimizer states);
    //    for mixed precision, the seed's k x b bytes per trainable parameter instead of the recipe's.
    if (mixed) {
        if (auto seed = recompute([](Scenario& c) { c.recipe = kSeedRecipe; }))
            add(MistakeId::wrong_bytes_per_parameter, seed->training_bytes,
                "That uses the seed's " + dec(s.values_per_trainable) + " × " + dec(s.bytes_per_value) +
                    " bytes per trainable parameter; mixed-precision AdamW keeps a bf16 gradient (2 bytes) and fp32 master "
                    "weights, Adam m and Adam v (4 bytes each): 14 bytes per trainable parameter.");
    }
    if (id == QuestionId::weight || id == QuestionId::inference || total) {
        for (Decimal wrong : wrong_byte_candidates(s.bytes_per_param)) {
            auto changed = recompute([&](Scenario& c) { c.bytes_per_param = wrong; });
            if (!changed) continue;
            const bool bits = wrong.micros == s.bytes_per_param.micros * 8;
            add(MistakeId::wrong_bytes_per_parameter, question_bytes(id, *changed),
                bits ? "That uses " + dec(wrong) + " bytes per parameter, which is the number of bits: " + dec(wrong) +
                           " bits are " + dec(s.bytes_per_param) + " bytes, so b = " + dec(s.bytes_per_param) + "."
                     : "That uses " + dec(wrong) + " bytes per parameter, but this model stores " +
                           bytes_with_format(s.bytes_per_param) + " per parameter; b scales the weight memory directly.");
        }
    }
    if (training_kind) {
        for (Decimal wrong : wrong_byte_candidates(s.bytes_per_value)) {
            auto changed = recompute([&](Scenario& c) { c.bytes_per_value = wrong; });
            if (!changed) continue;
            add(MistakeId::wrong_bytes_per_parameter, question_bytes(id, *changed),
                "That uses " + dec(wrong) + " bytes per stored value, but each gradient and optimizer value takes " +
                    dec(s.bytes_per_value) + " bytes here.");
        }
    }

    // 7. GiB written as GB, or GB as GiB.
    add(MistakeId::gib_gb_mixup, scale_bytes(right, kBytesPerGb, kBytesPerGib),
        "That is the figure in GiB (2^30 bytes) written as GB (10^9 bytes): " + gb(right) + " = " + format_gib(right) + ".",
        WrongPath::WrittenIn::decimal_unit);
    add(MistakeId::gib_gb_mixup, scale_bytes(right, kBytesPerGib, kBytesPerGb),
        "That is the figure in GB (10^9 bytes) written as GiB (2^30 bytes): " + gb(right) + " = " + format_gib(right) + ".",
        WrongPath::WrittenIn::binary_unit);

    stable_sort_small(paths, [](const WrongPath& a, const WrongPath& b) { return a.mistake < b.mistake; });
    return paths;
}

}  // namespace

Expected<std::vector<WrongPath>> wrong_paths(QuestionId id, const Scenario& scenario) {
    const Scenario s = question_scenario(id, scenario);
    if (engine_question(id)) return engine_wrong_paths(id, s);
    const Expected<Estimate> base = estimate(s);
    if (!base) return Error{base.error()};
    return wrong_paths_from(id, s, *base);
}

namespace {

// check_answer with the question scenario's estimate given when the caller has it (`known`, else
// nullptr), so a checked answer estimates its scenario once: the wrong paths only estimate their changes.
Expected<CheckResult> check_answer_with(QuestionId id, const Scenario& scenario, const Estimate* known,
                                        std::string_view answer_text) {
    const Expected<ParsedAnswer> parsed = parse_answer(answer_text);
    if (!parsed) return parsed.failure();
    std::uint64_t figure = 0;
    std::vector<WrongPath> paths;
    std::string step;
    if (engine_question(id)) {
        const Expected<std::uint64_t> engine_figure = question_figure(id, scenario);
        if (!engine_figure) return engine_figure.failure();
        const Expected<std::vector<WrongPath>> engine_paths = wrong_paths(id, scenario);
        if (!engine_paths) return Error{engine_paths.error()};
        const Expected<std::string> engine_step = right_step(id, scenario);
        if (!engine_step) return Error{engine_step.error()};
        figure = *engine_figure;
        paths = *engine_paths;
        step = *engine_step;
    } else {
        const Scenario s = question_scenario(id, scenario);
        std::optional<Estimate> own;
        if (known == nullptr) {
            const Expected<Estimate> e = estimate(s);
            if (!e) return e.failure();
            own = *e;
            known = &*own;
        }
        const Expected<std::string> own_step = right_step_from(id, s, *known);
        if (!own_step) return Error{own_step.error()};
        figure = question_bytes(id, *known);
        paths = wrong_paths_from(id, s, *known);
        step = *own_step;
    }

    CheckResult result;
    result.question = id;
    result.answer = *parsed;
    result.expected_bytes = figure;
    const std::string read_note = parsed->unit == AnswerUnit::none
                                      ? " (" + parsed->number_text + " has no unit, so it was read as " +
                                            (parsed->read_as == AnswerUnit::gb ? gb(parsed->bytes) : format_count_exact(parsed->bytes) + " bytes") + ".)"
                                      : std::string();
    if (within_tolerance(parsed->bytes, result.expected_bytes)) {
        result.correct = true;
        result.explanation = "Right: " + gb(result.expected_bytes) + " (" + format_gib(result.expected_bytes) + "). " + step;
        return result;
    }
    const WrongPath* match = nullptr;
    const AnswerUnit unit = parsed->read_as;
    const bool binary = unit == AnswerUnit::kib || unit == AnswerUnit::mib || unit == AnswerUnit::gib || unit == AnswerUnit::tib;
    const bool decimal = unit == AnswerUnit::kb || unit == AnswerUnit::mb || unit == AnswerUnit::gb || unit == AnswerUnit::tb;
    for (const WrongPath& path : paths) {
        if (!within_tolerance(parsed->bytes, path.bytes)) continue;
        if (path.written_in == WrongPath::WrittenIn::decimal_unit && binary) continue;
        if (path.written_in == WrongPath::WrittenIn::binary_unit && decimal) continue;
        if (match == nullptr) {
            match = &path;
        } else if (path.mistake != match->mistake &&
                   std::find(result.also_matches.begin(), result.also_matches.end(), path.mistake) == result.also_matches.end()) {
            result.also_matches.push_back(path.mistake);
        }
    }
    if (match != nullptr) {
        result.mistake = match->mistake;
        result.explanation = match->what + " Right step: " + step;
        const bool designed_pair = match->mistake == MistakeId::freezing_removes_weights && result.also_matches.size() == 1 &&
                                   result.also_matches[0] == MistakeId::training_without_weights;
        if (designed_pair) {
            result.explanation += " (Leaving the weights out of the training total, training-without-weights, gives the same "
                                  "figure; with frozen parameters it is the seed's freezing mistake.)";
        } else if (!result.also_matches.empty()) {
            std::string others;
            for (MistakeId other : result.also_matches) others += (others.empty() ? "" : ", ") + std::string(mistake_key(other));
            result.explanation += " (The same figure also comes from " + others + "; " + mistake_key(match->mistake) +
                                  " is named because it comes first in the list of known mistakes.)";
        }
    } else {
        result.explanation = "Not within " + std::to_string(kAnswerTolerancePercent) + "% of " + gb(result.expected_bytes) +
                             ", and not one of the known mistakes. Right step: " + step;
    }
    result.explanation += read_note;
    return result;
}

}  // namespace

Expected<CheckResult> check_answer(QuestionId id, const Scenario& scenario, std::string_view answer_text) {
    return check_answer_with(id, scenario, nullptr, answer_text);
}

std::string check_result_json(const CheckResult& r) {
    JsonWriter w;
    w.begin_object().field("question", question_key(r.question)).field("correct", r.correct).key("mistake");
    if (r.mistake) w.value(mistake_key(*r.mistake));
    else w.null();
    w.key("also_matches").begin_array();
    for (MistakeId m : r.also_matches) w.value(mistake_key(m));
    w.end_array().field("explanation", r.explanation).field("expected_bytes", r.expected_bytes).field("answer_bytes", r.answer.bytes);
    w.field("answer_read_as", answer_unit_name(r.answer.read_as)).field("tolerance_percent", kAnswerTolerancePercent);
    return w.end_object().take();
}

std::string check_answer_json(std::string_view question_key_text, std::string_view state, std::string_view answer_text) {
    const Expected<QuestionId> id = parse_question_id(question_key_text);
    if (!id) return json_error_object(id.error());
    const StateResult applied = apply_state(Scenario{}, state);
    if (!applied.problems.empty()) return json_error_object("state: " + applied.problems.front());
    // apply_state's estimate is the question's own when the question asks on the state's scenario as given.
    const bool own_scenario = !engine_question(*id) && *id != QuestionId::mixed_precision_training;
    const Estimate* known = own_scenario && applied.estimate ? &*applied.estimate : nullptr;
    const Expected<CheckResult> result = check_answer_with(*id, applied.scenario, known, answer_text);
    if (!result) return json_error_object(result.error());
    return check_result_json(*result);
}

// ---------------------------------------------------------------------------------------------------

Exercise predict_70b_exercise() {
    Exercise ex;
    ex.ref = "predict-70b";
    ex.title = "What do you think happens?";
    ex.setup = "A 13B-parameter model stores its weights at 2 bytes per parameter and needs 26 GB.";
    Scenario s;
    s.param_count = 70'000'000'000ULL;
    PracticeQuestion q = make_question(
        QuestionId::weight, s, "How much memory do the weights of a 70B-parameter model need at the same 2 bytes per parameter?");
    // The seed's reveal, word for word; tests check that core computes the same 140 GB.
    q.reveal = "140 GB. Multiply the parameter count by the bytes per parameter: 70B × 2 bytes = 140 GB. "
               "Because the calculation is linear, the answer scales directly with the parameter count.";
    ex.questions.push_back(std::move(q));
    return ex;
}

Exercise seed_7b_exercise() {
    Exercise ex;
    ex.ref = "seed-7b";
    ex.title = "Estimating a 7B Model";
    ex.setup =
        "A 7B-parameter model stores each parameter in 2 bytes. First, calculate its weight memory and its total "
        "inference memory with the overhead factor of 1.2. Then suppose all 7B parameters are trainable with the Adam "
        "example (k = 3) at 2 bytes per value, and calculate the gradient and optimizer memory. Explain which of your "
        "totals would change if only 1B parameters were trainable.";
    Scenario all;
    all.param_count = 7'000'000'000ULL;
    Scenario one_b = all;
    one_b.trainable = TrainableSpec::exact(1'000'000'000ULL);
    ex.questions.push_back(make_question(QuestionId::weight, all, "What is the weight memory of the 7B model at 2 bytes per parameter?"));
    ex.questions.push_back(make_question(QuestionId::inference, all, "What is its total inference memory with the overhead factor of 1.2?"));
    ex.questions.push_back(make_question(QuestionId::gradient_optimizer, all,
                                         "All 7B parameters are trainable with the Adam example (k = 3) at 2 bytes per value. "
                                         "How much gradient and optimizer memory is needed?"));
    ex.questions.push_back(make_question(QuestionId::training, all,
                                         "What is the training total with all 7B parameters trainable: weights plus gradient and optimizer memory?"));
    ex.questions.push_back(make_question(QuestionId::training, one_b, "Now only 1B parameters are trainable. What is the training total?"));
    ex.questions.push_back(make_question(QuestionId::reduction, one_b,
                                         "By how much does the gradient and optimizer memory shrink when only 1B of the 7B parameters train?"));
    ex.hints = seed_hints();
    const Expected<Estimate> full = estimate(all);
    const Expected<Estimate> part = estimate(one_b);
    if (full && part)
        ex.closing = "Only the gradient and optimizer term depends on the trainable count: with 1B trainable it falls from " +
                     gb(full->gradient_optimizer_bytes) + " to " + gb(part->gradient_optimizer_bytes) +
                     ", so the training total falls from " + gb(full->training_bytes) + " to " + gb(part->training_bytes) +
                     ". The weight memory (" + gb(full->weight_bytes) + ") and the inference total (" + gb(full->inference_bytes) +
                     ") do not change.";
    return ex;
}

Expected<Exercise> generate_exercise(std::uint32_t seed_number) {
    if (seed_number == 0) return Error{"practice: the exercise number must be 1 or more"};
    static constexpr std::uint64_t kParamCounts[] = {
        1'000'000'000ULL,  1'300'000'000ULL,  2'700'000'000ULL,  3'000'000'000ULL,  6'700'000'000ULL,
        7'000'000'000ULL,  8'000'000'000ULL,  13'000'000'000ULL, 14'000'000'000ULL, 30'000'000'000ULL,
        34'000'000'000ULL, 40'000'000'000ULL, 65'000'000'000ULL, 70'000'000'000ULL, 180'000'000'000ULL};
    static constexpr std::uint64_t kBytesMicros[] = {2 * Decimal::kScale, 2 * Decimal::kScale, 1 * Decimal::kScale,
                                                     Decimal::kScale / 2, 4 * Decimal::kScale};
    static constexpr std::uint64_t kTrainableCounts[] = {100'000'000ULL, 250'000'000ULL, 500'000'000ULL, 1'000'000'000ULL,
                                                         2'000'000'000ULL, 5'000'000'000ULL};
    static constexpr std::uint64_t kTrainablePercents[] = {1, 5, 10, 25};

    SplitMix64 rng{seed_number};
    Exercise ex;
    for (int attempt = 0; attempt < 64; ++attempt) {
        Scenario s;
        s.param_count = kParamCounts[rng.pick(std::size(kParamCounts))];
        s.bytes_per_param = Decimal{kBytesMicros[rng.pick(std::size(kBytesMicros))]};
        // An fp32 model trains with fp32 gradient and optimizer values.
        if (s.bytes_per_param == Decimal::from_int(4)) s.bytes_per_value = Decimal::from_int(4);
        switch (rng.pick(3)) {
            case 0: break;  // every parameter trains
            case 1: {
                const std::uint64_t count = kTrainableCounts[rng.pick(std::size(kTrainableCounts))];
                if (count * 2 <= s.param_count) s.trainable = TrainableSpec::exact(count);
                break;
            }
            default:
                s.trainable = TrainableSpec::percent_of(Decimal::from_int(kTrainablePercents[rng.pick(std::size(kTrainablePercents))]));
                break;
        }
        const Expected<Estimate> e = estimate(s);
        if (!e) continue;
        const bool frozen = e->trainable_count < e->param_count;

        ex = Exercise{};
        ex.ref = std::to_string(seed_number);
        ex.title = "Exercise " + ex.ref + ": a " + count_text(s.param_count) + " model";
        ex.setup = "A " + count_text(s.param_count) + "-parameter model stores each parameter in " + bytes_with_format(s.bytes_per_param) +
                   ". Use the overhead factor of " + dec(s.overhead_factor) + " for inference. For training, use the Adam example (k = " +
                   dec(s.values_per_trainable) + ") at " + dec(s.bytes_per_value) + " bytes per value, with " +
                   (frozen ? count_text(e->trainable_count) + " of its parameters trainable" +
                                 (s.trainable.kind == TrainableSpec::Kind::percent ? " (" + dec(s.trainable.percent) + "%)" : std::string())
                           : std::string("all of its parameters trainable")) +
                   ".";
        for (QuestionId id : all_questions()) {
            if (id == QuestionId::reduction && !frozen) continue;
            if (id == QuestionId::mixed_precision_training) continue;  // added below when unambiguous
            if (engine_question(id)) continue;  // asked of an engine scenario, not of these exercises
            ex.questions.push_back(make_question(id, s, question_prompt(id, s, *e)));
        }
        ex.hints = seed_hints();
        ex.closing = frozen ? "Freezing changed only the gradient and optimizer term, from " + gb(e->full_gradient_optimizer_bytes) + " to " +
                                  gb(e->gradient_optimizer_bytes) + "; the weights keep their " + gb(e->weight_bytes) + "."
                            : "Training needs " + gb(e->training_bytes) + ", " + format_ratio(e->training_bytes, e->inference_bytes, 1) +
                                  " times the " + gb(e->inference_bytes) + " inference total.";
        if (!unambiguous(ex)) continue;
        // Mixed precision (bf16 weights) as a last question, unless its wrong paths would be ambiguous here.
        if (s.bytes_per_param == Decimal::from_int(2)) {
            Exercise with_mixed = ex;
            with_mixed.questions.push_back(
                make_question(QuestionId::mixed_precision_training, s, question_prompt(QuestionId::mixed_precision_training, s, *e)));
            if (unambiguous(with_mixed)) return with_mixed;
        }
        return ex;
    }
    return ex;  // every attempt was ambiguous (not seen in tests): the last one is still a valid exercise
}

Expected<Exercise> find_exercise(std::string_view ref) {
    const std::string_view t = trim(ref);
    if (t == "seed-7b") return seed_7b_exercise();
    if (t == "predict-70b") return predict_70b_exercise();
    std::uint64_t number = 0;
    bool digits = !t.empty() && t.size() <= 10;
    for (char c : t) {
        if (!digits) break;  // longer than 10 characters: not a seed number (and no wrap-around below)
        if (c < '0' || c > '9') {
            digits = false;
            break;
        }
        number = number * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits && number >= 1 && number <= 0xFFFFFFFFULL) return generate_exercise(static_cast<std::uint32_t>(number));
    const std::string shown = printable_excerpt(t, 40);
    return Error{"practice: \"" + shown + "\" is not an exercise (seed-7b, predict-70b or a number such as 42)"};
}

const std::vector<MistakeCard>& seed_mistake_cards() {
    // The seed's "Mistakes in Memory Estimates" section, word for word (its LaTeX written out as text).
    static const std::vector<MistakeCard> kCards = {
        {MistakeId::weights_as_inference, "Reporting the weight memory as the total inference memory",
         "Stopping at 26 GB for the 13B model.",
         "The overhead factor of 1.2 is applied to the weights before the inference total is known.",
         "Multiply the weight memory by 1.2 to get 31.2 GB for the 13B example."},
        {MistakeId::one_value_per_trainable, "Counting only one value per trainable parameter during training",
         "Computing training memory as N × b, which gives 26 GB for 13B at 2 bytes.",
         "The Adam example stores three gradient and optimizer values per trainable parameter, which is the k term in the formula.",
         "Use N_trainable × k × b with k = 3 to get 78 GB for the gradient and optimizer states."},
        {MistakeId::freezing_removes_weights, "Believing that freezing parameters removes the weight memory",
         "Assuming that training only 1B parameters brings the total down to 6 GB.",
         "The model still has all of its parameters, so the weights still need their full storage.",
         "Add the 26 GB of weights to the 6 GB of gradient and optimizer storage for a total of 32 GB in that case."},
        {MistakeId::wrong_bytes_per_parameter, "Forgetting that bytes per parameter changes the result",
         "Using 2 bytes per parameter for every model, whatever the storage format.",
         "Halving b halves the weight memory, so the same parameter count can have very different footprints.",
         "Check the bytes-per-parameter value for the storage format before calculating."},
    };
    return kCards;
}

}  // namespace llm_memory

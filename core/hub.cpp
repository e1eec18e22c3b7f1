// HubLookup: one request at a time, each answer read by the reader of that kind of file, the next request
// planned from what was read. Order: the API's file list; config.json (else params.json); then the
// weights: a named file, else the safetensors index and each shard's 8-byte length and header, else the
// one GGUF file (several: the user picks). Gated files fall back to the API's public safetensors totals.
#include "hub.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "json.hpp"
#include "json_writer.hpp"
#include "quantity.hpp"
#include "report.hpp"

namespace llm_memory {
namespace {

bool id_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// An org or repo name as the Hub allows it: 1-96 of [A-Za-z0-9_.-], no leading/trailing '-' or '.', no
// "--" or "..".
bool valid_name(std::string_view s) {
    if (s.empty() || s.size() > 96) return false;
    for (char c : s)
        if (!id_char(c)) return false;
    if (s.front() == '-' || s.front() == '.' || s.back() == '-' || s.back() == '.') return false;
    return s.find("--") == std::string_view::npos && s.find("..") == std::string_view::npos;
}

std::string percent_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto hex = [](char c) -> int {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        };
        if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

std::string percent_encode_path(std::string_view s) { return percent_encode(s, "/"); }

Status check_file(std::string_view file) {
    if (file.empty()) return Error{"the file name after ':' is empty"};
    if (file.size() > 512) return Error{"the file name is longer than 512 bytes"};
    if (file.front() == '/') return Error{"a file name cannot start with '/'"};
    for (char c : file)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\') return Error{"the file name has a control character or '\\'"};
    std::size_t start = 0;
    while (start <= file.size()) {
        const std::size_t end = std::min(file.find('/', start), file.size());
        const std::string_view part = file.substr(start, end - start);
        if (part == ".." || part == "." || part.empty()) return Error{"\"" + printable_excerpt(file, 60) + "\" is not a file path in a repo"};
        start = end + 1;
    }
    return std::nullopt;
}

Status check_revision(std::string_view rev) {
    if (rev.empty() || rev.size() > 128) return Error{"the revision must be 1 to 128 characters"};
    for (char c : rev)
        if (!id_char(c)) return Error{"the revision \"" + printable_excerpt(rev, 40) + "\" may hold only letters, digits, '-', '_' and '.'"};
    if (rev.find("..") != std::string_view::npos) return Error{"the revision cannot hold \"..\""};
    return std::nullopt;
}

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

bool is_gguf_name(const std::string& file) { return ends_with(lower(file), ".gguf"); }

// A GGUF file offered as a model: not a vision projector (mmproj) and, of a split model, the first part.
bool offered_gguf(const std::string& file) {
    if (!is_gguf_name(file)) return false;
    const std::string name = lower(file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1));
    if (name.rfind("mmproj", 0) == 0) return false;
    const std::size_t of = name.find("-of-");
    if (of != std::string::npos && of >= 5 && name.compare(of - 5, 5, "00001") != 0) return false;
    return true;
}

// Bytes of one value of a safetensors dtype (the Hub's parameter totals are keyed by them).
std::uint64_t dtype_bytes(const std::string& dtype) {
    static const std::map<std::string, std::uint64_t> sizes = {
        {"F64", 8}, {"I64", 8}, {"U64", 8}, {"F32", 4}, {"I32", 4}, {"U32", 4}, {"F16", 2}, {"BF16", 2}, {"I16", 2},
        {"U16", 2}, {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"F8_E8M0", 1}, {"I8", 1}, {"U8", 1}, {"BOOL", 1}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

std::string host_of(const std::string& endpoint) {
    std::string host = endpoint;
    const std::size_t scheme = host.find("://");
    if (scheme != std::string::npos) host.erase(0, scheme + 3);
    const std::size_t slash = host.find('/');
    if (slash != std::string::npos) host.erase(slash);
    return host;
}

// Adds the groups and totals of one shard's summary to the merged one.
void merge_summary(SafetensorsSummary& into, const SafetensorsSummary& shard) {
    into.header_bytes += shard.header_bytes;
    into.tensor_count += shard.tensor_count;
    into.data_bytes += shard.data_bytes;
    into.param_count += shard.param_count;
    for (const SafetensorsGroup& g : shard.groups) {
        auto it = std::find_if(into.groups.begin(), into.groups.end(),
                               [&g](const SafetensorsGroup& h) { return h.dtype == g.dtype && h.role == g.role; });
        if (it == into.groups.end()) {
            into.groups.push_back(g);
        } else {
            it->tensor_count += g.tensor_count;
            it->element_count += g.element_count;
            it->bytes += g.bytes;
            it->param_count += g.param_count;
        }
    }
    for (const std::string& note : shard.notes)
        if (std::find(into.notes.begin(), into.notes.end(), note) == into.notes.end()) into.notes.push_back(note);
}

}  // namespace

Expected<std::string> config_from_params_json(std::string_view params_text) {
    if (params_text.size() > kHubMaxJsonFileBytes) return Error{"params.json: is larger than 4 MB"};
    if (max_nesting_depth(params_text) > 64) return Error{"params.json: nested deeper than 64 levels"};
    const JsonDocument doc = parse_json(params_text);
    if (!doc.ok() || !doc.value.is_object())
        return Error{"params.json: not valid JSON (truncated or malformed) at byte " + std::to_string(doc.error_position)};
    const JsonValue& p = doc.value;
    const JsonValue* vision = p.find("vision_encoder");
    if (vision != nullptr && vision->is_null()) vision = nullptr;
    if (vision != nullptr && !vision->is_object()) return Error{"params.json: vision_encoder: must be an object"};
    // Two kinds of tower (mistral_common's VisionEncoderArgs): Mistral 3's, whose adapter is the patch merger with
    // the pre-projector norm (mm_projector_id "patch_merge"), and Pixtral 12B's, with no mm_projector_id: the
    // two-layer adapter alone, as transformers' convert_pixtral_weights_to_hf.py renames it into LLaVA's projector.
    bool merger = false;
    if (vision != nullptr) {
        const JsonValue* projector = vision->find("mm_projector_id");
        const JsonValue* norm = vision->find("add_pre_mm_projector_layer_norm");
        const bool norm_on = norm != nullptr && norm->is_boolean() && norm->boolean();
        merger = projector != nullptr;
        if (merger && (!projector->is_string() || projector->text() != "patch_merge" || !norm_on))
            return Error{"params.json: vision_encoder: mm_projector_id \"" +
                         printable_excerpt(projector->is_string() ? projector->text() : "(not a string)", 40) +
                         "\" is not modelled (known: Mistral 3's \"patch_merge\" with the pre-projector norm, or none as in "
                         "Pixtral 12B); it would be left out of the count"};
        const JsonValue* merge = vision->find("spatial_merge_size");
        if (!merger && (norm_on || (merge != nullptr && !(merge->is_unsigned() && merge->unsigned_value() == 1))))
            return Error{"params.json: vision_encoder: a pre-projector norm or a spatial_merge_size other than 1 without "
                         "mm_projector_id is not modelled; it would be left out of the count"};
    }
    JsonWriter w;
    w.begin_object();
    if (vision != nullptr) {
        // In the shape of the config.json transformers writes for it: Mistral3ForConditionalGeneration's with the
        // merger, LlavaForConditionalGeneration's without (mistral-community/pixtral-12b).
        // adapter_bias defaults to true (vLLM's and mistral_common's VisionEncoderArgs).
        const JsonValue* bias = vision->find("adapter_bias");
        if (bias != nullptr && !bias->is_boolean()) return Error{"params.json: vision_encoder.adapter_bias: must be true or false"};
        const bool biased = bias == nullptr || bias->boolean();
        if (merger) {
            const JsonValue* merge = vision->find("spatial_merge_size");
            if (merge == nullptr || !merge->is_unsigned()) return Error{"params.json: vision_encoder.spatial_merge_size: must be a whole number"};
            w.field("model_type", "mistral3").field("spatial_merge_size", merge->unsigned_value());
        } else {
            w.field("model_type", "llava").field("vision_feature_layer", -1);
        }
        w.field("multimodal_projector_bias", biased);
        w.key("vision_config").begin_object().field("model_type", "pixtral");
        for (const char* key : {"hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels",
                                "patch_size", "image_size"}) {
            const JsonValue* v = vision->find(key);
            if (v == nullptr || !v->is_unsigned())
                return Error{std::string("params.json: vision_encoder.") + key + ": must be a whole number"};
            w.field(key, v->unsigned_value());
        }
        w.end_object().key("text_config").begin_object();
    }
    bool experts = false;
    const auto copy = [&](const char* from, const char* to, bool required) -> Status {
        const JsonValue* v = p.find(from);
        if (v == nullptr) return required ? Status(Error{std::string("params.json: ") + from + ": is missing"}) : std::nullopt;
        if (!v->is_unsigned()) return Error{std::string("params.json: ") + from + ": must be a whole number"};
        w.field(to, v->unsigned_value());
        return std::nullopt;
    };
    for (const auto& [from, to, required] : {std::tuple<const char*, const char*, bool>{"dim", "hidden_size", true},
                                             {"n_layers", "num_hidden_layers", true},
                                             {"n_heads", "num_attention_heads", true},
                                             {"n_kv_heads", "num_key_value_heads", false},
                                             {"hidden_dim", "intermediate_size", true},
                                             {"head_dim", "head_dim", false},
                                             {"vocab_size", "vocab_size", true},
                                             {"sliding_window", "sliding_window", false}})
        if (const Status bad = copy(from, to, required)) return *bad;
    if (const JsonValue* moe = p.find("moe"); moe != nullptr && moe->is_object()) {
        const JsonValue* n = moe->find("num_experts");
        const JsonValue* k = moe->find("num_experts_per_tok");
        if (n == nullptr || !n->is_unsigned() || k == nullptr || !k->is_unsigned())
            return Error{"params.json: moe: needs whole numbers num_experts and num_experts_per_tok"};
        w.field("num_local_experts", n->unsigned_value()).field("num_experts_per_tok", k->unsigned_value());
        experts = true;
    }
    const JsonValue* tied = p.find("tied_embeddings");
    w.field("tie_word_embeddings", tied != nullptr && tied->is_boolean() && tied->boolean());
    w.field("model_type", experts ? "mixtral" : "mistral").end_object();
    if (vision != nullptr) w.end_object();
    return w.take();
}

Expected<HubRef> parse_hub_ref(std::string_view input) {
    std::string text(trim(input));
    const std::string shown = "\"" + printable_excerpt(text, 60) + "\"";
    if (text.empty()) return Error{"hf", "is empty: type a model id (org/name) or a huggingface.co address"};
    HubRef ref;
    ref.revision = "main";
    bool url = false;
    for (const char* scheme : {"https://", "http://"}) {
        if (text.rfind(scheme, 0) == 0) {
            text.erase(0, std::char_traits<char>::length(scheme));
            url = true;
        }
    }
    std::string host = text.substr(0, text.find('/'));
    const std::string host_lower = lower(host);
    if (host_lower == "huggingface.co" || host_lower == "www.huggingface.co" || host_lower == "hf.co") {
        url = true;
        text.erase(0, std::min(text.size(), host.size() + 1));
    } else if (url) {
        return Error{"hf", shown + " is not a huggingface.co address"};
    }
    if (url) {
        text = text.substr(0, std::min(text.find('?'), text.find('#')));
        std::vector<std::string> parts;
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t end = std::min(text.find('/', start), text.size());
            if (end > start) parts.push_back(percent_decode(text.substr(start, end - start)));
            start = end + 1;
        }
        if (!parts.empty() && (parts[0] == "datasets" || parts[0] == "spaces"))
            return Error{"hf", shown + " is a " + std::string(parts[0] == "datasets" ? "dataset" : "Space") + ", not a model"};
        if (parts.size() < 2) return Error{"hf", shown + " does not name a model (huggingface.co/org/name)"};
        ref.repo = parts[0] + "/" + parts[1];
        if (!valid_name(parts[0]) || !valid_name(parts[1]))
            return Error{"hf", shown + " does not name a model: org and name hold letters, digits, '-', '_' and '.'"};
        if (parts.size() >= 4 && (parts[2] == "tree" || parts[2] == "blob" || parts[2] == "resolve")) {
            ref.revision = parts[3];
            if (const Status bad = check_revision(ref.revision)) return Error{"hf", bad->message()};
            for (std::size_t i = 4; i < parts.size(); ++i) ref.file += (i > 4 ? "/" : "") + parts[i];
            if (parts[2] == "tree") ref.file.clear();
            else if (ref.file.empty()) return Error{"hf", shown + " names no file after the revision"};
        }
        if (!ref.file.empty())
            if (const Status bad = check_file(ref.file)) return Error{"hf", bad->message()};
        return ref;
    }
    const std::size_t colon = text.find(':');
    std::string id = text.substr(0, colon);
    if (colon != std::string::npos) {
        ref.file = text.substr(colon + 1);
        if (const Status bad = check_file(ref.file)) return Error{"hf", bad->message()};
    }
    const std::size_t at = id.find('@');
    if (at != std::string::npos) {
        ref.revision = id.substr(at + 1);
        id.erase(at);
        if (const Status bad = check_revision(ref.revision)) return Error{"hf", bad->message()};
    }
    const std::size_t slash = id.find('/');
    if (slash == std::string::npos || id.find('/', slash + 1) != std::string::npos || !valid_name(id.substr(0, slash)) ||
        !valid_name(id.substr(slash + 1)))
        return Error{"hf", shown + " is not a model id: write org/name (letters, digits, '-', '_', '.'), "
                                   "org/name:file.gguf, or paste a huggingface.co address"};
    ref.repo = id;
    return ref;
}

std::string hub_ref_text(const HubRef& ref) {
    std::string out = ref.repo;
    if (!ref.revision.empty() && ref.revision != "main") out += "@" + ref.revision;
    if (!ref.file.empty()) out += ":" + ref.file;
    return out;
}

HubLookup::HubLookup(HubRef ref, std::string endpoint, HubClient client, bool has_token)
    : ref_(std::move(ref)), endpoint_(std::move(endpoint)), client_(client), has_token_(has_token) {
    while (!endpoint_.empty() && endpoint_.back() == '/') endpoint_.pop_back();
    result_.ref = ref_;
    HubRequest api;
    api.url = endpoint_ + "/api/models/" + ref_.repo + (ref_.revision != "main" ? "/revision/" + percent_encode_path(ref_.revision) : "") +
              "?blobs=true";
    api.what = "the file list";
    api.max_bytes = kHubMaxApiBytes;
    api.cache_path = ref_.repo + "/" + ref_.revision + "/api.json";
    pending_ = api;
}

const HubRequest* HubLookup::next() const { return pending_ ? &*pending_ : nullptr; }

std::string HubLookup::resolve_url(const std::string& file) const {
    const std::string& rev = result_.commit.empty() ? ref_.revision : result_.commit;
    return endpoint_ + "/" + ref_.repo + "/resolve/" + percent_encode_path(rev) + "/" + percent_encode_path(file);
}

std::uint64_t HubLookup::sibling_size(const std::string& file) const {
    for (const HubGgufChoice& s : siblings_)
        if (s.file == file) return s.size_bytes;
    return 0;
}

bool HubLookup::has_sibling(const std::string& file) const {
    return std::any_of(siblings_.begin(), siblings_.end(), [&file](const HubGgufChoice& s) { return s.file == file; });
}

void HubLookup::request(Step step, const std::string& file, std::string what, std::uint64_t max_bytes) {
    step_ = step;
    HubRequest r;
    r.url = resolve_url(file);
    r.what = std::move(what);
    r.max_bytes = max_bytes;
    r.cache_path = ref_.repo + "/" + (result_.commit.empty() ? ref_.revision : result_.commit) + "/" + file;
    pending_ = r;
}

void HubLookup::ranged(Step step, const std::string& file, std::string what, std::uint64_t begin, std::uint64_t length) {
    request(step, file, std::move(what), length);
    pending_->ranged = true;
    pending_->range_begin = begin;
    pending_->range_length = length;
    pending_->cache_path += "@" + std::to_string(begin) + "-" + std::to_string(begin + length - 1);
    pending_->what += " (bytes " + std::to_string(begin) + "-" + std::to_string(begin + length - 1) + ")";
}

void HubLookup::fail(std::string problem) {
    error_ = Error{"hf", ref_.repo + ": " + problem};
    pending_.reset();
    step_ = Step::done;
}

void HubLookup::fail_gated(int status) {
    // The files are refused; the API's public totals may still give N and b.
    result_.gate = gated_.empty() ? std::string("gated or private") : gated_;
    const std::string gate_text = gated_.empty() ? std::string("it has its files refused (HTTP ") + std::to_string(status) + ")"
                                                 : "it is a gated model (\"" + gated_ + "\" approval)" +
                                                       (status != 0 ? " and its files are refused (HTTP " + std::to_string(status) + ")" : "");
    const std::string how = client_ == HubClient::cli
                                ? (has_token_ ? "the token in HF_TOKEN has no access yet: accept the model's conditions on its "
                                                "Hub page with that account"
                                              : "accept the conditions on its Hub page, then set HF_TOKEN to a token of that account")
                                : "download its config.json with an account that accepted the conditions and drop it on the page";
    if (!metadata_counts_.empty()) {
        std::uint64_t params = 0;
        std::uint64_t bytes = 0;
        std::string lines = "Hub metadata (public; the files are gated):";
        JsonWriter json;
        json.begin_object().field("format", "hub-metadata").key("dtypes").begin_array();
        for (const auto& [dtype, count] : metadata_counts_) {
            const std::uint64_t size = dtype_bytes(dtype);
            if (size == 0 || count > kMaxParamCount || params + count > kMaxParamCount) {
                fail(gate_text + ", and the Hub's totals name a dtype \"" + printable_excerpt(dtype, 20) + "\" of unknown size; " + how);
                return;
            }
            lines += "\n  " + dtype + ": " + format_count_exact(count) + " parameters, " + format_count_exact(count * size) + " bytes";
            json.begin_object().field("dtype", dtype).field("parameters", count).field("bytes", count * size).end_object();
            params += count;
            bytes += count * size;
        }
        lines += "\n  total: " + format_count_exact(params) + " parameters, " + format_count_exact(bytes) + " bytes";
        result_.source = "Hub metadata";
        result_.weights.kind = "hub-metadata";
        result_.weights.param_count = params;
        result_.weights.weight_bytes = bytes;
        result_.weights.report = lines;
        result_.weights.json = json.end_array().field("parameters", params).field("data_bytes", bytes).end_object().take();
        result_.notes.push_back("The repo " + gate_text.substr(3) + ": N and the bytes come from the Hub's public totals (a packed "
                                "int4 or FP4 tensor counts its stored values), without the architecture, so no KV cache. For "
                                "the exact model, " + how + ".");
        finish();
        return;
    }
    fail(gate_text + ", and the Hub publishes no parameter totals for it. To read it, " + how + ".");
}

void HubLookup::answer(const HubResponse& response) {
    if (!pending_) return;
    const HubRequest asked = *pending_;
    ++result_.request_count;
    result_.bytes_read += response.body.size();
    if (result_.request_count > kHubMaxRequests) return fail("stopped after " + std::to_string(kHubMaxRequests) + " requests");
    if (result_.bytes_read > kHubMaxBytes) return fail("stopped after reading " + format_bytes_binary(kHubMaxBytes));
    const std::string host = host_of(endpoint_);
    if (!response.transport_error.empty()) return fail(asked.what + ": " + response.transport_error);
    const int status = response.status;
    if (step_ == Step::api) {
        if (status == 401 || status == 404)
            return fail(std::string("no such model on ") + host + " (HTTP " + std::to_string(status) +
                        (ref_.revision != "main" ? ", or no revision \"" + ref_.revision + "\"" : std::string()) +
                        "): check the id" + (client_ == HubClient::cli ? "; a private repo needs HF_TOKEN" : ""));
        if (status == 429) return fail(host + " asks to slow down (HTTP 429): try again in a minute");
        if (status < 200 || status >= 300) return fail(asked.what + ": " + host + " answered HTTP " + std::to_string(status));
    } else if (status == 401 || status == 403) {
        return fail_gated(status);
    } else if (status == 404 && step_ == Step::params) {
        // No params.json either: handled below as "nothing to read".
    } else if (status == 404) {
        return fail(asked.what + ": not found (HTTP 404) although the file list names it");
    } else if (status == 416) {
        return fail(asked.what + ": the server refused the byte range (HTTP 416): the file is shorter than its header says");
    } else if (status < 200 || status >= 300) {
        return fail(asked.what + ": " + host + " answered HTTP " + std::to_string(status));
    }
    std::string body = response.body;
    if (asked.ranged) {
        // A server that ignored Range sent the file from its start: keep the bytes asked for.
        if (status == 200 && asked.range_begin > 0) {
            if (body.size() < asked.range_begin + asked.range_length && body.size() > asked.range_length)
                return fail(asked.what + ": the server ignored the byte range");
            if (body.size() >= asked.range_begin + asked.range_length) body = body.substr(static_cast<std::size_t>(asked.range_begin));
        }
        if (body.size() > asked.range_length) body.resize(static_cast<std::size_t>(asked.range_length));
    } else if (body.size() > asked.max_bytes) {
        return fail(asked.what + ": is larger than " + format_bytes_decimal(asked.max_bytes) + ", more than this look-up reads");
    }

    switch (step_) {
        case Step::api: {
            if (max_nesting_depth(body) > 64) return fail("the file list is nested deeper than 64 levels");
            const JsonDocument doc = parse_json(body);
            if (!doc.ok() || !doc.value.is_object())
                return fail("the file list is not valid JSON (at byte " + std::to_string(doc.error_position) + ")");
            const JsonValue& v = doc.value;
            if (const JsonValue* sha = v.find("sha"); sha != nullptr && sha->is_string() && check_revision(sha->text()) == std::nullopt)
                result_.commit = sha->text();
            if (const JsonValue* gated = v.find("gated"); gated != nullptr) {
                if (gated->is_string()) gated_ = printable_excerpt(gated->text(), 20);
                else if (gated->is_boolean() && gated->boolean()) gated_ = "yes";
            }
            if (const JsonValue* st = v.find("safetensors"); st != nullptr && st->is_object())
                if (const JsonValue* params = st->find("parameters"); params != nullptr && params->is_object())
                    for (const JsonMember& m : params->members())
                        if (m.value.is_unsigned() && m.value.unsigned_value() > 0)
                            metadata_counts_.emplace_back(m.key, m.value.unsigned_value());
            const JsonValue* siblings = v.find("siblings");
            if (siblings == nullptr || !siblings->is_array()) return fail("the file list has no \"siblings\"");
            for (const JsonValue& s : siblings->items()) {
                const JsonValue* name = s.find("rfilename");
                if (name == nullptr || !name->is_string()) continue;
                HubGgufChoice f;
                f.file = name->text();
                const JsonValue* lfs = s.find("lfs");
                const JsonValue* size = lfs != nullptr && lfs->find("size") != nullptr ? lfs->find("size") : s.find("size");
                if (size != nullptr && size->is_unsigned()) f.size_bytes = size->unsigned_value();
                siblings_.push_back(std::move(f));
            }
            plan_after_api();
            return;
        }
        case Step::config:
        case Step::params: {
            if (status == 404) {  // params.json asked only when listed; a 404 means nothing to read
                plan_weights();
                return;
            }
            const std::string name = step_ == Step::config ? "config.json" : "params.json";
            std::string text = body;
            if (step_ == Step::params) {
                const Expected<std::string> translated = config_from_params_json(body);
                if (!translated) return fail(translated.error());
                text = *translated;
            }
            Expected<ModelSource> model = model_from_config(text, ref_.repo);
            if (!model) return fail(name + ": " + model.failure().message_without("config.json"));
            model.value().display_name = ref_.repo + " (" + (model->architecture.model_type.empty() ? std::string("unknown type") : model->architecture.model_type) + ")";
            for (const std::string& w : model->architecture.warnings) result_.notes.push_back(name + ": " + w);
            result_.config_model = std::make_shared<const ModelSource>(std::move(model.value()));
            result_.source = name;
            plan_weights();
            return;
        }
        case Step::index: {
            const Expected<SafetensorsSummary> index = read_safetensors_index(body);
            if (!index) return fail("model.safetensors.index.json: " + index.error());
            const JsonDocument doc = parse_json(body);
            const JsonValue* map = doc.value.find("weight_map");
            std::vector<std::string> shards;
            if (map != nullptr)
                for (const JsonMember& m : map->members())
                    if (m.value.is_string() && std::find(shards.begin(), shards.end(), m.value.text()) == shards.end())
                        shards.push_back(m.value.text());
            std::sort(shards.begin(), shards.end());
            if (shards.empty()) return fail("model.safetensors.index.json names no shard");
            if (shards.size() > kHubMaxShards)
                return fail("model.safetensors.index.json names " + std::to_string(shards.size()) + " shards, more than the " +
                            std::to_string(kHubMaxShards) + " this look-up reads");
            for (const std::string& s : shards)
                if (check_file(s) != std::nullopt) return fail("model.safetensors.index.json names a shard \"" + printable_excerpt(s, 40) + "\" that is not a file path");
            shards_ = shards;
            shard_index_ = 0;
            next_shard();
            return;
        }
        case Step::shard_length: {
            const std::string& shard = shards_[shard_index_];
            const std::uint64_t size = sibling_size(shard);
            const Expected<std::uint64_t> length = safetensors_header_length(body, size != 0 ? size : ~std::uint64_t{0} >> 1);
            if (!length) return fail(shard + ": " + length.error());
            if (*length > kHubMaxSafetensorsHeaderBytes)
                return fail(shard + ": its header is " + format_bytes_decimal(*length) + ", more than the " +
                            format_bytes_binary(kHubMaxSafetensorsHeaderBytes) + " this look-up reads of one header");
            shard_first_bytes_ = body;
            ranged(Step::shard_header, shard, shard + " header", 8, *length);
            return;
        }
        case Step::shard_header: {
            const std::string& shard = shards_[shard_index_];
            if (body.size() < pending_->range_length) return fail(shard + ": the header ends early (" + std::to_string(body.size()) + " of " + std::to_string(pending_->range_length) + " bytes)");
            const std::uint64_t size = sibling_size(shard);
            const Expected<SafetensorsSummary> s = read_safetensors_header(shard_first_bytes_ + body, size != 0 ? size : ~std::uint64_t{0} >> 1);
            if (!s) return fail(shard + ": " + s.error());
            merge_summary(merged_, *s);
            ++shard_index_;
            next_shard();
            return;
        }
        case Step::gguf: {
            const Expected<bool> fed = gguf_->feed(body);
            if (!fed) return fail(ref_.file + ": " + fed.error());
            gguf_offset_ += body.size();
            if (*fed || (sibling_size(ref_.file) != 0 && gguf_offset_ >= sibling_size(ref_.file)) || body.empty()) {
                const Expected<FileModel> model = gguf_->finish(nullptr);
                if (!model) return fail(ref_.file + ": " + model.error());
                result_.weights = *model;
                result_.source = "GGUF header";
                finish();
                return;
            }
            if (gguf_offset_ >= kHubMaxGgufHeaderBytes)
                return fail(ref_.file + ": the header is longer than the " + format_bytes_binary(kHubMaxGgufHeaderBytes) + " this look-up reads");
            next_gguf_chunk();
            return;
        }
        case Step::done: return;
    }
}

void HubLookup::plan_after_api() {
    if (!ref_.file.empty() && !has_sibling(ref_.file)) {
        std::string listed;
        int shown = 0;
        for (const HubGgufChoice& s : siblings_)
            if ((is_gguf_name(s.file) || ends_with(s.file, ".safetensors")) && shown < 6) listed += (shown++ ? ", " : "") + s.file;
        return fail("no file \"" + printable_excerpt(ref_.file, 80) + "\" in the repo" + (listed.empty() ? std::string() : " (it has " + listed + ")"));
    }
    const bool gguf_named = !ref_.file.empty() && is_gguf_name(ref_.file);
    if (!gguf_named) {
        std::vector<HubGgufChoice> offered;
        for (const HubGgufChoice& s : siblings_)
            if (offered_gguf(s.file)) offered.push_back(s);
        const bool has_weights = has_sibling("model.safetensors") || has_sibling("model.safetensors.index.json") ||
                                 (!ref_.file.empty() && ends_with(ref_.file, ".safetensors"));
        if (!has_weights && !has_sibling("config.json") && ref_.file.empty() && offered.size() > 1) {
            result_.gguf_choices = offered;
            result_.needs_choice = true;
            result_.source = "file list";
            finish();
            return;
        }
        if (!has_weights && !has_sibling("config.json") && ref_.file.empty() && offered.size() == 1) ref_.file = offered[0].file;
    }
    if (!gated_.empty() && !has_token_) return fail_gated(0);
    if (!ref_.file.empty() && is_gguf_name(ref_.file)) return plan_weights();
    if (has_sibling("config.json")) return request(Step::config, "config.json", "config.json", kHubMaxJsonFileBytes);
    if (has_sibling("params.json")) return request(Step::params, "params.json", "params.json", kHubMaxJsonFileBytes);
    plan_weights();
}

void HubLookup::plan_weights() {
    result_.ref.file = ref_.file;
    if (!ref_.file.empty() && is_gguf_name(ref_.file)) {
        gguf_ = std::make_unique<ModelFileReader>(sibling_size(ref_.file) != 0 ? sibling_size(ref_.file) : ~std::uint64_t{0} >> 1,
                                                  ref_.repo + ":" + ref_.file);
        gguf_offset_ = 0;
        gguf_chunk_ = kHubFirstGgufChunkBytes;
        next_gguf_chunk();
        return;
    }
    if (!ref_.file.empty() && ends_with(ref_.file, ".safetensors")) {
        shards_ = {ref_.file};
        shard_index_ = 0;
        next_shard();
        return;
    }
    if (!ref_.file.empty() && ref_.file != "config.json" && ref_.file != "params.json")
        return fail("\"" + printable_excerpt(ref_.file, 80) + "\" is not a .gguf or .safetensors file");
    if (ref_.file.empty() && has_sibling("model.safetensors.index.json"))
        return request(Step::index, "model.safetensors.index.json", "model.safetensors.index.json", kHubMaxJsonFileBytes);
    if (ref_.file.empty() && has_sibling("model.safetensors")) {
        shards_ = {"model.safetensors"};
        shard_index_ = 0;
        next_shard();
        return;
    }
    if (result_.config_model) {
        result_.notes.push_back("the repo has no safetensors or GGUF weights to read: N is the config's count and the bytes "
                                "per parameter stay as chosen");
        finish();
        return;
    }
    fail("the repo has no config.json, params.json, safetensors or GGUF file to read");
}

void HubLookup::next_shard() {
    if (shard_index_ >= shards_.size()) {
        if (merged_.param_count == 0) return fail("the safetensors headers hold no weights");
        merged_.shard_count = shards_.size();
        FileModel& w = result_.weights;
        w.kind = "safetensors";
        w.param_count = merged_.param_count;
        w.weight_bytes = merged_.data_bytes;
        w.report = safetensors_report(merged_);
        w.json = safetensors_json(merged_);
        result_.source = shards_.size() == 1 ? "safetensors header" : "safetensors headers";
        if (result_.config_model && result_.config_model->counts.total_count != merged_.param_count)
            result_.notes.push_back("config.json counts " + format_count_exact(result_.config_model->counts.total_count) +
                                    " parameters, the weights hold " + format_count_exact(merged_.param_count) +
                                    ": the figures use the weights' count, without the config's architecture");
        finish();
        return;
    }
    ranged(Step::shard_length, shards_[shard_index_], shards_[shard_index_] + " header length", 0, 8);
}

void HubLookup::next_gguf_chunk() {
    const std::uint64_t size = sibling_size(ref_.file);
    std::uint64_t length = gguf_chunk_;
    if (size != 0) length = std::min(length, size - std::min(size, gguf_offset_));
    if (length == 0) length = 1;
    ranged(Step::gguf, ref_.file, ref_.file + " header", gguf_offset_, length);
    gguf_chunk_ = std::min(gguf_chunk_ * 2, kHubLargestGgufChunkBytes);
}

void HubLookup::finish() {
    pending_.reset();
    step_ = Step::done;
    HubResult& r = result_;
    r.ref.file = ref_.file;
    std::string report = "Hugging Face: " + hub_ref_text(r.ref);
    if (!r.commit.empty()) report += " (commit " + r.commit.substr(0, 12) + ")";
    report += "\nRead: " + (r.source.empty() ? std::string("nothing") : r.source) + "; " + std::to_string(r.request_count) +
              (r.request_count == 1 ? " request, " : " requests, ") + format_count_exact(r.bytes_read) + " bytes";
    if (r.needs_choice) report += "\nThe repo has " + std::to_string(r.gguf_choices.size()) + " GGUF files: pick one.";
    if (r.config_model)
        report += "\n" + r.config_model->display_name + ": " + format_count_exact(r.config_model->counts.total_count) + " parameters";
    if (!r.weights.report.empty()) report += "\n" + r.weights.report;
    while (!report.empty() && report.back() == '\n') report.pop_back();
    for (const std::string& note : r.notes) report += "\nNote: " + note;
    r.report = report;
    JsonWriter w;
    w.begin_object().field("repo", r.ref.repo).field("revision", r.ref.revision).field_or_null("commit", r.commit);
    w.field_or_null("file", r.ref.file).field("source", r.source).field_or_null("gate", r.gate);
    w.field("requests", r.request_count).field("bytes_read", r.bytes_read).key("config_parameters");
    if (r.config_model) w.value(r.config_model->counts.total_count);
    else w.null();
    w.key("gguf_files").begin_array();
    for (const HubGgufChoice& c : r.gguf_choices) w.begin_object().field("file", c.file).field("bytes", c.size_bytes).end_object();
    r.json = w.end_array().field("notes", r.notes).end_object().take();
}

Expected<HubResult> HubLookup::result() const {
    if (error_) return *error_;
    if (step_ != Step::done) return Error{"hf", ref_.repo + ": the look-up has not finished"};
    return result_;
}

Expected<bool> apply_hub_result(Scenario& scenario, const HubResult& result) {
    if (result.needs_choice) return Error{"hf", result.ref.repo + ": pick one of its GGUF files first"};
    if (!result.weights.kind.empty()) {
        FileModel file = result.weights;
        if (!file.model && result.config_model && result.config_model->counts.total_count == file.param_count) file.model = result.config_model;
        Scenario candidate = scenario;
        const Expected<bool> applied = apply_file_model(candidate, file);
        if (!applied) return Error{"hf", result.ref.repo + ": " + applied.error()};
        scenario = candidate;
        return true;
    }
    if (result.config_model) {
        scenario.param_count = result.config_model->counts.total_count;
        scenario.model = result.config_model;
        return true;
    }
    return Error{"hf", result.ref.repo + ": nothing was read to apply"};
}

std::vector<JsonField> hub_json_fields(const HubResult& result) {
    std::vector<JsonField> fields{{"hub", result.json}};
    if (!result.weights.json.empty()) fields.push_back({"file", result.weights.json});
    return fields;
}

std::string hub_choices_text(const HubResult& result) {
    std::string out;
    for (const HubGgufChoice& c : result.gguf_choices)
        out += "  " + result.ref.repo + ":" + c.file + (c.size_bytes ? " (" + format_gb(c.size_bytes) + ")" : std::string()) + "\n";
    return out;
}

}  // namespace llm_memory

// A model looked up on the Hugging Face Hub by its id: the id or URL parsed, the requests planned one at a
// time (the API's file list, config.json, the safetensors index and each shard's header by Range, or a
// GGUF header by Range), the answers read through the same readers as local files. No I/O here: the CLI
// and desktop app answer the requests with libcurl, the page with fetch(). Every request and byte is bounded.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "architecture.hpp"
#include "estimator.hpp"
#include "json_writer.hpp"
#include "model_file.hpp"
#include "result.hpp"
#include "safetensors.hpp"

namespace llm_memory {

// The public Hub; HF_ENDPOINT replaces it in the CLI and the desktop app.
inline constexpr const char* kHubDefaultEndpoint = "https://huggingface.co";

// Bounds of one look-up (the README states them).
inline constexpr std::uint64_t kHubMaxRequests = 300;                     // requests of every kind
inline constexpr std::uint64_t kHubMaxBytes = 96ull << 20;                 // bytes of every answer together
inline constexpr std::uint64_t kHubMaxApiBytes = 8ull << 20;               // the API's answer (file list)
inline constexpr std::uint64_t kHubMaxJsonFileBytes = 4'000'000;           // config.json, params.json, the index
inline constexpr std::uint64_t kHubMaxShards = 128;                        // safetensors shards read by header
inline constexpr std::uint64_t kHubMaxSafetensorsHeaderBytes = 16ull << 20; // one shard's JSON header
inline constexpr std::uint64_t kHubMaxGgufHeaderBytes = 64ull << 20;       // a GGUF file's header
inline constexpr std::uint64_t kHubFirstGgufChunkBytes = 64ull << 10;      // GGUF chunks: 64 KiB, doubling...
inline constexpr std::uint64_t kHubLargestGgufChunkBytes = 4ull << 20;     // ... up to 4 MiB

// What the user asked for: "org/name", "org/name:file.gguf" or a huggingface.co URL of a repo or a file.
struct HubRef {
    std::string repo;       // "meta-llama/Llama-3.1-8B"
    std::string revision;   // "main" unless the URL names one (…/tree/REV, …/blob/REV/FILE)
    std::string file;       // "" or a file in the repo ("Q4_K_M/model-Q4_K_M.gguf")
};

// Reads an id or URL. Errors name the problem: "is not a model id (org/name)", "is a dataset, not a
// model", "\"..\" is not allowed in a file name".
Expected<HubRef> parse_hub_ref(std::string_view text);

// The canonical text of a ref: "org/name", "org/name:file", "org/name@rev:file" (parse_hub_ref reads it).
std::string hub_ref_text(const HubRef& ref);

// One request the transport makes: a GET of `url`, following redirects (to the Hub's storage hosts).
struct HubRequest {
    std::string url;                 // absolute, percent-encoded
    std::string what;                // "the file list", "config.json", "model.gguf (bytes 0-65535)"
    bool ranged = false;             // send Range: bytes=range_begin-(range_begin+range_length-1)
    std::uint64_t range_begin = 0;
    std::uint64_t range_length = 0;
    std::uint64_t max_bytes = 0;     // read at most this many bytes; a longer answer is an error
    std::string cache_path;          // "org/name/REV/file" (+ "@BEGIN-END" when ranged): where a cache keeps it
};

// The transport's answer. A server that ignores Range and sends 200 with the whole file is fine: the
// transport keeps the first range_length bytes and stops reading.
struct HubResponse {
    int status = 0;                  // the final HTTP status after redirects; 0 when there was none
    std::string body;                // at most max_bytes + 1 bytes
    std::string transport_error;     // "" or what went wrong without an answer ("timed out after 10 s")
    bool from_cache = false;
};

// A GGUF file the user may pick (the repo has several quants).
struct HubGgufChoice {
    std::string file;
    std::uint64_t size_bytes = 0;    // 0 when the Hub did not say
};

// What a finished look-up gives.
struct HubResult {
    HubRef ref;                          // as asked, with the file that was read
    std::string commit;                  // the revision's commit (the API's "sha"), "" when not given
    std::string source;                  // "safetensors headers", "GGUF header", "config.json", "Hub metadata"
    std::vector<HubGgufChoice> gguf_choices;  // the repo's GGUF files when one must be picked
    bool needs_choice = false;           // several GGUF files and none named: nothing to apply yet
    std::shared_ptr<const ModelSource> config_model;  // from config.json / params.json, null when none
    FileModel weights;                   // kind "" when no weights were read
    std::string gate;                    // "" or the Hub's gated value ("manual", "auto") when files were refused
    std::vector<std::string> notes;      // what was assumed or could not be read
    std::uint64_t request_count = 0;
    std::uint64_t bytes_read = 0;        // bytes of every answer, cached ones included
    std::string report;                  // lines for the Model section and the CLI table
    std::string json;                    // {"repo":...,"revision":...,"source":...,"requests":...,"bytes_read":...}
};

// Who asks: the CLI can send a token (HF_TOKEN); the page cannot, so its gated message says to drop the
// config file instead.
enum class HubClient { cli, page };

// One look-up: call next() for a request, answer() it, until next() is null; then result().
class HubLookup {
public:
    HubLookup(HubRef ref, std::string endpoint, HubClient client, bool has_token);
    // The next request, or nullptr when the look-up has ended (result() then says how).
    const HubRequest* next() const;
    // The answer to the request next() returned.
    void answer(const HubResponse& response);
    // The result once next() is null: the weights and/or config read, a list of GGUF files to pick from,
    // or the error naming the problem ("meta-llama/Llama-3.1-8B: config.json: timed out after 10 s").
    Expected<HubResult> result() const;
    std::uint64_t request_count() const { return result_.request_count; }
    std::uint64_t bytes_read() const { return result_.bytes_read; }

private:
    enum class Step { api, config, params, index, shard_length, shard_header, gguf, done };
    void plan_after_api();
    void plan_weights();
    void request(Step step, const std::string& file, std::string what, std::uint64_t max_bytes);
    void ranged(Step step, const std::string& file, std::string what, std::uint64_t begin, std::uint64_t length);
    void next_shard();
    void next_gguf_chunk();
    void fail(std::string problem);
    void fail_gated(int status);
    void finish();
    std::string resolve_url(const std::string& file) const;
    std::uint64_t sibling_size(const std::string& file) const;
    bool has_sibling(const std::string& file) const;

    HubRef ref_;
    std::string endpoint_;
    HubClient client_;
    bool has_token_;
    Step step_ = Step::api;
    std::optional<HubRequest> pending_;
    HubResult result_;
    std::optional<Error> error_;
    std::vector<HubGgufChoice> siblings_;  // every file with its size
    std::string gated_;                    // the API's gated value ("" when false)
    std::string metadata_parameters_;      // the API's safetensors.parameters as {"BF16": n, ...} text
    std::vector<std::pair<std::string, std::uint64_t>> metadata_counts_;
    std::vector<std::string> shards_;
    std::size_t shard_index_ = 0;
    std::string shard_first_bytes_;
    SafetensorsSummary merged_;
    std::unique_ptr<ModelFileReader> gguf_;
    std::uint64_t gguf_offset_ = 0;
    std::uint64_t gguf_chunk_ = kHubFirstGgufChunkBytes;
};

// Mistral's native params.json (dim, n_layers, n_heads, n_kv_heads, hidden_dim, head_dim, vocab_size,
// tied_embeddings, moe.num_experts / num_experts_per_tok) as the config.json text parse_config reads
// (model_type "mistral", or "mixtral" with experts). A vision_encoder with Mistral 3's projector
// (mm_projector_id "patch_merge", the pre-projector norm) becomes a "mistral3" config: the text model under
// text_config, the Pixtral tower under vision_config. Error naming a missing or malformed key, or another
// vision encoder (not modelled: its tower would be left out of the count).
Expected<std::string> config_from_params_json(std::string_view params_text);

// Makes a look-up's result the scenario's model: the weights read (N, b, a GGUF's architecture; the
// config's architecture when its count agrees), else the config's model and count (b stays). Error
// when the result has nothing to apply (a GGUF file still to pick).
Expected<bool> apply_hub_result(Scenario& scenario, const HubResult& result);

// The GGUF choices as lines "file (size)" for messages and the CLI.
std::string hub_choices_text(const HubResult& result);

// The members a look-up adds before a report's own: "hub" (result.json) and, when weights were read,
// "file" (their JSON), as report_json's `leading`.
std::vector<JsonField> hub_json_fields(const HubResult& result);

}  // namespace llm_memory

// The catalogue look-up shared by the weight formats, GPUs and recipes: how typed text becomes a key,
// aliases, the listed keys, and that each catalogue reads names exactly as it did with its own loop.
#include <catch_amalgamated.hpp>

#include "catalogue.hpp"
#include "formats.hpp"
#include "gpus.hpp"
#include "recipes.hpp"

using namespace llm_memory;

namespace {
struct Row {
    std::string key;
    int value;
};
const std::vector<Row> kRows = {{"alpha", 1}, {"beta-2", 2}};
}  // namespace

TEST_CASE("catalogue: find_in, aliases, keys_of and catalogue_key", "[catalogue]") {
    CHECK(find_in(kRows, "alpha")->value == 1);
    CHECK(find_in(kRows, "Alpha") == nullptr);  // find_in compares keys as given: folding is catalogue_key's job
    constexpr CatalogueAlias kAliases[] = {{"a", "alpha"}, {"b", "beta-2"}, {"c", "gamma"}};
    CHECK(find_in(kRows, "b", kAliases)->value == 2);
    CHECK(find_in(kRows, "alpha", kAliases)->value == 1);
    CHECK(find_in(kRows, "c", kAliases) == nullptr);  // an alias to a missing key finds nothing
    CHECK(keys_of(kRows) == "alpha, beta-2");
    CHECK(keys_of(std::vector<Row>{}).empty());
    CHECK(catalogue_key("  Q4-K-M ", "-", '_') == "q4_k_m");
    CHECK(catalogue_key("RTX_4090 ti", "_ ", '-') == "rtx-4090-ti");
    CHECK(catalogue_key(" SGD-Momentum ") == "sgd-momentum");
    CHECK(catalogue_key("\t").empty());
}

TEST_CASE("catalogue: formats, GPUs and recipes read their aliases and spellings", "[catalogue]") {
    // Weight formats: '-' reads as '_', and the float and NF4 long names.
    for (const auto& [name, key] : std::vector<std::pair<const char*, const char*>>{
             {"Q4-K-M", "q4_k_m"}, {"float32", "fp32"}, {"FLOAT16", "fp16"}, {"bfloat16", "bf16"},
             {"nf4-double-quant", "nf4_dq"}, {"nf4dq", "nf4_dq"}}) {
        INFO(name);
        CHECK(find_weight_format(name)->key == key);
    }
    CHECK(find_weight_format("q4 k m").error().find("is not a known format") != std::string::npos);
    // GPUs: '_' and ' ' read as '-', and the short names.
    CHECK(find_gpu("RTX_4090")->key == "rtx-4090");
    CHECK(find_gpu("a100 80gb")->key == "a100-80gb");
    for (const auto& [alias, key] : std::vector<std::pair<const char*, const char*>>{
             {"3060", "rtx-3060"}, {"4070", "rtx-4070"}, {"4080", "rtx-4080"}, {"5080", "rtx-5080"}, {"3090", "rtx-3090"},
             {"4090", "rtx-4090"}, {"5090", "rtx-5090"}, {"A100", "a100-80gb"}, {"h100", "h100-80gb"}, {"a6000", "rtx-a6000"}}) {
        INFO(alias);
        CHECK(find_gpu(alias)->key == key);
    }
    CHECK(find_gpu("4060").error() == "\"4060\" is not a known GPU (" + gpu_keys() + "; or give --gpu-memory)");
    // Recipes: case and spaces only ('_' is not '-').
    CHECK(find_recipe(" AdamW-Mixed ")->key == "adamw-mixed");
    CHECK(find_recipe("adamw_mixed").error() == "\"adamw_mixed\" is not a known recipe (" + recipe_keys() + ")");
    CHECK(find_recipe(" ").error() == "is empty (one of " + recipe_keys() + ")");
    CHECK(recipe_keys().rfind("seed-adam, adamw-mixed, ", 0) == 0);
    CHECK(weight_format_keys().rfind("fp32, fp16, bf16, ", 0) == 0);
    CHECK(gpu_keys().rfind("rtx-3060, rtx-3090, ", 0) == 0);
}

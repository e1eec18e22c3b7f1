// CLI half of bench/run: times 10,000 estimates through the CLI's own entry point (run_cli, in-process,
// so process start-up is not counted), the same through core's estimate() alone, and parsing the largest
// config.json given on the command line (parse_config + count_parameters). Prints key=value lines.
// Usage: cli_bench [CONFIG.json]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "estimator.hpp"
#if __has_include("architecture.hpp")
#include "architecture.hpp"
#define BENCH_HAS_ARCHITECTURE 1
#endif

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr int kEstimates = 10000;

// 10,000 different CLI invocations: params 1B..10000B, every third one with a trainable subset.
double time_run_cli(std::uint64_t& checksum) {
    std::string out;
    std::string err;
    const auto start = Clock::now();
    for (int i = 0; i < kEstimates; ++i) {
        std::vector<std::string> args = {"--params", std::to_string(i + 1) + "B", "--format", "json"};
        if (i % 3 == 0) {
            args.push_back("--trainable");
            args.push_back("1%");
        }
        out.clear();
        err.clear();
        if (llm_memory::run_cli(args, out, err) != 0) {
            std::fprintf(stderr, "cli_bench: run_cli failed: %s\n", err.c_str());
            return -1;
        }
        checksum += out.size();
    }
    return ms_since(start);
}

double time_estimate(std::uint64_t& checksum) {
    llm_memory::Scenario scenario;
    const auto start = Clock::now();
    for (int i = 0; i < kEstimates; ++i) {
        scenario.param_count = static_cast<std::uint64_t>(i + 1) * 1'000'000'000ULL;
        const auto result = llm_memory::estimate(scenario);
        if (!result) return -1;
        checksum += result->training_bytes & 0xff;
    }
    return ms_since(start);
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t checksum = 0;
    std::printf("cli_run_cli_10000_ms=%.2f\n", time_run_cli(checksum));
    std::printf("core_estimate_10000_ms=%.3f\n", time_estimate(checksum));
#ifdef BENCH_HAS_ARCHITECTURE
    if (argc > 1) {
        std::ifstream file(argv[1], std::ios::binary);
        std::stringstream buffer;
        buffer << file.rdbuf();
        const std::string text = buffer.str();
        // First parse (cold caches), then the median of 1000 parses.
        auto start = Clock::now();
        auto first = llm_memory::parse_config(text);
        if (!first) {
            std::fprintf(stderr, "cli_bench: %s: %s\n", argv[1], first.error().c_str());
            return 1;
        }
        auto counts = llm_memory::count_parameters(*first);
        const double first_ms = ms_since(start);
        std::vector<double> runs;
        for (int i = 0; i < 1000; ++i) {
            start = Clock::now();
            auto arch = llm_memory::parse_config(text);
            if (arch) counts = llm_memory::count_parameters(*arch);
            runs.push_back(ms_since(start));
        }
        std::sort(runs.begin(), runs.end());
        std::printf("config_file=%s\nconfig_bytes=%zu\nconfig_first_parse_ms=%.4f\nconfig_median_parse_ms=%.4f\n", argv[1],
                    text.size(), first_ms, runs[runs.size() / 2]);
        if (counts) checksum += counts->total_count & 0xff;
    }
#else
    (void)argc;
    (void)argv;
#endif
    std::printf("checksum=%llu\n", static_cast<unsigned long long>(checksum));
    return 0;
}

#!/usr/bin/env bash
# CLI tests against the built binary: exit codes, stdout/stderr separation, and the JSON figures of
# the foundation issue (seed: 13B -> 26/31.2/78/104 GB; 1B trainable -> 6/32 GB; 7B exercise).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${LLM_MEMORY_BIN:-./build/native/llm-memory}  # tests/sanitize.sh points this at build/asan
fail=0
# stderr goes to a file of this run's own: two runs at once (the sanitize stage, another checkout) never share it.
err_file=$(mktemp "${TMPDIR:-/tmp}/llm-memory-cli-err.XXXXXX")
trap 'rm -f "$err_file"' EXIT
check() {  # check NAME EXPECTED_STATUS EXPECTED_STDOUT_SUBSTRING EXPECTED_STDERR -- ARGS...
  local name=$1 want_status=$2 want_out=$3 want_err=$4; shift 5
  local out err status
  out=$("$bin" "$@" 2>"$err_file"); status=$?; err=$(cat "$err_file")
  if [[ $status != "$want_status" ]]; then echo "FAIL $name: status $status, want $want_status"; fail=1; return; fi
  if [[ -n "$want_out" && "$out" != *"$want_out"* ]]; then echo "FAIL $name: stdout lacks $want_out: $out"; fail=1; return; fi
  if [[ "$want_err" == "EMPTY" && -n "$err" ]]; then echo "FAIL $name: stderr not empty: $err"; fail=1; return; fi
  if [[ "$want_err" != "EMPTY" && "$err" != "$want_err" ]]; then echo "FAIL $name: stderr '$err', want '$want_err'"; fail=1; return; fi
  if [[ $want_status == 2 && -n "$out" ]]; then echo "FAIL $name: stdout not empty on error"; fail=1; return; fi
  echo "ok   $name"
}
check "seed 13B json"  0 '"weight_bytes":26000000000,"inference_bytes":31200000000,"gradient_optimizer_bytes":78000000000,"training_bytes":104000000000' EMPTY -- --params 13B --format json
check "seed 1B trainable" 0 '"gradient_optimizer_bytes":6000000000,"training_bytes":32000000000' EMPTY -- --params 13B --trainable 1B --format json
check "seed 70B" 0 '"weight_bytes":140000000000' EMPTY -- --params 70B --format json
check "seed 13B at 1 byte" 0 '"weight_bytes":13000000000' EMPTY -- --params 13B --bytes 1 --format json
check "seed 7B exercise" 0 '"weight_bytes":14000000000,"inference_bytes":16800000000,"gradient_optimizer_bytes":42000000000,"training_bytes":56000000000' EMPTY -- --params 7B --format json
check "seed 7B, 1B trainable" 0 '"gradient_optimizer_bytes":6000000000,"training_bytes":20000000000' EMPTY -- --params 7B --trainable 1B --format json
check "table default" 0 'Inference total             31.2 GB (29.06 GiB)' EMPTY --
check "bad params" 2 '' 'error: --params: is not a number' -- --params banana
check "negative" 2 '' 'error: --params: must not be negative' -- --params -1B
check "unknown flag" 2 '' 'error: unknown option --gpu-count (see --help)' -- --gpu-count 3
check "missing value" 2 '' 'error: --bytes: needs a value' -- --bytes
check "help" 0 'Usage: llm-memory' EMPTY -- --help
# What fits (llm-memory fit): Llama-2-7B fp16 on a 24 GiB card; 19,460 tokens is the closed form of
# tests/core/fit_test.cpp (the detailed total at 19,461 tokens is over 24 GiB).
check "fit context" 0 '{"context":{"side":"inference","found":true,"value":19460,"at_limit":false,"need_bytes":25769624576,' EMPTY -- fit --model llama-2-7b --gpu rtx-4090 --maximize context --format json
check "fit gpus zero 3" 0 '"training":{"side":"training","found":true,"value":2,' EMPTY -- fit --params 13B --gpu h100-80gb --zero 3 --minimize gpus --format json
check "tensor split per card" 0 '"cards":[{"bytes":26000000000,"fits":false,"verdict":"does not fit","margin_bytes":230196224},{"bytes":5200000000,"fits":true,' EMPTY -- --gpu rtx-4090 --gpus 2 --tensor-split 5,1 --format json
check "fit confidence typical" 0 '"confidence":"typical","peak_bytes":' EMPTY -- fit --model llama-2-7b --lora-rank 16 --qlora --gpu rtx-4090 --maximize seq-len --confidence typical --format json
check "fit confidence safe" 0 "the training peak's likely high end is" EMPTY -- fit --model llama-2-7b --lora-rank 16 --qlora --gpu rtx-4090 --maximize seq-len
# The second pass's terms from the CLI: DeepSpeed's 5e8-element bucket at ZeRO-3 is one 16-bit buffer (stage3.py),
# bitsandbytes dequantizes Llama-3-8B's largest linear (4096 x 14336) to 2 bytes; op-level recompute and eager
# attention are read back in the JSON's training settings.
second_pass=(--model llama-3-8b --lora-rank 16 --qlora --training-mode detailed --recompute op-selective --attention eager --gpus 2 --zero 3 --fsdp-prefetch 2 --zero-bucket 5e8 --format json)
check "second pass terms" 0 '"zero_bucket_bytes":1000000000,"dequant_workspace_bytes":117440512,"backward_peak_bytes":' EMPTY -- "${second_pass[@]}"
# The optimizer step's peak: a full fine-tune of Llama-3-8B at the seed's 16-bit Adam holds weights, gradients,
# both states and foreach's temporary of the second moment (torch/optim/adamw.py _multi_tensor_adamw): 5 x 2 x
# 8,030,261,248 bytes + the 512 MiB CUDA context; fused has no temporary; the step peaks at 2,048 tokens.
check "optimizer step peak" 0 '"step_peak_bytes":80839483392,"training_peak_bytes":80839483392,' EMPTY -- --model llama-3-8b --training-mode detailed --format json
check "optimizer step fused" 0 '"step_peak_bytes":64778960896,' EMPTY -- --model llama-3-8b --training-mode detailed --optimizer-impl fused --format json
check "optimizer step phase" 0 '"training_peak_phase":"optimizer step",' EMPTY -- --model llama-3-8b --training-mode detailed --format json
check "second pass settings" 0 '"recompute":"op-selective","attention":"eager",' EMPTY -- "${second_pass[@]}"
check "second pass gathered" 0 '"zero3_gathered_bytes":' EMPTY -- "${second_pass[@]}"
check "fit help" 0 'Usage: llm-memory fit' EMPTY -- fit --help
check "fit apple working set" 0 '"capacity_bytes":51539607552,' EMPTY -- fit --params 70B --dtype int4 --gpu apple-64gb --minimize bytes --format json
# GGUF and safetensors files written by tests/files/model_files.mjs; @huggingface/gguf must agree with us.
models=$(LLM_MEMORY_BIN="$bin" node --test --test-reporter=dot tests/cli/model_files.test.mjs 2>&1) || { echo "FAIL model files:"; echo "$models"; fail=1; }
# --hf against our fake Hub on 127.0.0.1 (tests/files/fake_hub.mjs, through HF_ENDPOINT): no internet.
hub=$(LLM_MEMORY_BIN="$bin" node --test --test-reporter=dot tests/cli/hub.test.mjs 2>&1) || { echo "FAIL hub:"; echo "$hub"; fail=1; }
hardening=$(tests/cli/cli_hardening.sh "$bin") || fail=1  # the table of bad inputs
grep -v "^ok " <<<"$hardening"
readme=$(python3 tests/cli/readme_examples.py "$bin") || fail=1  # every README CLI example, run verbatim
grep -v "^ok " <<<"$readme"
reality=$(python3 tests/cli/reality_test.py "$bin") || fail=1  # published measurements vs our estimate, README table
grep -v "^ok " <<<"$reality"
inference=$(python3 tests/cli/inference_reality_test.py "$bin") || fail=1  # engines' published logs vs ours, README table
grep -v "^ok " <<<"$inference"
exit $fail

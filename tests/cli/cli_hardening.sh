#!/usr/bin/env bash
# Bad CLI input, table-driven: each row must exit 2 with exactly one "error: ..." line naming the flag
# on stderr and nothing on stdout. Usage: tests/cli/cli_hardening.sh [BINARY] (default build/native/llm-memory;
# tests/sanitize.sh runs it against the ASan+UBSan build). Arguments above 128 KB cannot be passed at all
# (Linux MAX_ARG_STRLEN), so the long-string rows use 100 KB; 1 MB strings are in tests/core/hardening_test.cpp.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-${LLM_MEMORY_BIN:-./build/native/llm-memory}}
[[ -x "$bin" ]] || { echo "cli_hardening: no binary at $bin"; exit 1; }
fail=0
count=0
errfile=$(mktemp)
trap 'rm -f "$errfile"' EXIT
use=' (use a number with K, M, B or T)'
big_digits=$(head -c 100000 /dev/zero | tr '\0' '9')
big_garbage=$(head -c 100000 /dev/zero | tr '\0' 'x')
grouping='is not a number (commas group thousands as in 7,000,000; decimals take a point)'
formats='(fp32, fp16, bf16, fp8, int8, int4, gptq, awq, mxfp4, nf4, nf4_dq, q8_0, q6_k, q5_k, q5_k_m, q4_k, q4_k_m, q4_0, q3_k, q3_k_m, q2_k, or bits such as 4.65bpw)'

bad() {  # bad NAME EXPECTED_STDERR -- ARGS...
  local name=$1 want_err=$2; shift 3
  local out status err
  count=$((count + 1))
  out=$("$bin" "$@" 2>"$errfile"); status=$?; err=$(cat "$errfile")
  if [[ $status != 2 ]]; then echo "FAIL $name: status $status, want 2"; fail=1; return; fi
  if [[ -n "$out" ]]; then echo "FAIL $name: stdout not empty: ${out:0:200}"; fail=1; return; fi
  if [[ "$err" != "$want_err" ]]; then echo "FAIL $name: stderr '${err:0:300}', want '$want_err'"; fail=1; return; fi
  echo "ok   $name"
}

bad "params empty"            'error: --params: is empty' -- --params ''
bad "params whitespace"       'error: --params: is empty' -- --params '   '
bad "params = empty"          'error: --params: is empty' -- --params=
bad "params negative"         'error: --params: must not be negative' -- --params -7B
bad "params zero"             'error: --params: must be greater than zero' -- --params 0
bad "params nan"              'error: --params: is not a finite number' -- --params nan
bad "params NaN"              'error: --params: is not a finite number' -- --params NaN
bad "params -nan"             'error: --params: is not a finite number' -- --params -nan
bad "params inf"              'error: --params: is not a finite number' -- --params inf
bad "params +Infinity"        'error: --params: is not a finite number' -- --params +Infinity
bad "params 1e999"            'error: --params: is too large (at most 1000T = 10^15)' -- --params 1e999
bad "params 1e30"             'error: --params: is too large (at most 1000T = 10^15)' -- --params 1e30
bad "params 2^64"             'error: --params: is too large (at most 1000T = 10^15)' -- --params 18446744073709551616
bad "params trailing garbage" "error: --params: has unexpected text \"Bx\"$use" -- --params 13Bx
bad "params decimal comma"    "error: --params: $grouping" -- --params 1,5B
bad "params fullwidth digits" 'error: --params: is not a number' -- --params $'\uff11\uff13B'
bad "params Arabic-Indic"     'error: --params: is not a number' -- --params $'\u0661\u0663B'
bad "params U+2212 minus"     'error: --params: must not be negative' -- --params $'\u221213B'
bad "params zero-width space" $'error: --params: has unexpected text "\u200bB"'"$use" -- --params $'13\u200bB'
bad "params letter O"         "error: --params: has unexpected text \"O\"$use" -- --params 1O
bad "params control char"     "error: --params: has unexpected text \"?B\"$use" -- --params $'13\x01B'
bad "params 100 KB digits"    'error: --params: is too large (at most 1000T = 10^15)' -- --params "$big_digits"
bad "params 100 KB garbage"   "error: --params: has unexpected text \"Bxxxxxxxxxxx...\"$use" -- --params "13B$big_garbage"
bad "params missing value"    'error: --params: needs a value' -- --params
bad "bytes zero"              'error: --bytes: must be greater than zero' -- --bytes 0
bad "bytes 65"                'error: --bytes: is too large (at most 64)' -- --bytes 65
bad "bytes with unit"         'error: --bytes: has unexpected text "bytes"' -- --bytes '2 bytes'
bad "bytes -Infinity"         'error: --bytes: is not a finite number' -- --bytes -Infinity
bad "overhead below 1"        'error: --overhead: must be at least 1 (it multiplies the weights)' -- --overhead 0.5
bad "overhead 101"            'error: --overhead: is too large (at most 100)' -- --overhead 101
bad "k negative"              'error: --k: must not be negative' -- --k -1
bad "k 1e999"                 'error: --k: is too large (at most 100)' -- --k 1e999
bad "state-bytes zero"        'error: --state-bytes: must be greater than zero' -- --state-bytes 0
bad "trainable 101%"          'error: --trainable: is more than 100%' -- --trainable 101%
bad "trainable nan%"          'error: --trainable: is not a finite number' -- --trainable nan%
bad "trainable above params"  'error: --trainable: 14,000,000,000 is more than the 13,000,000,000 parameters of the model' -- --trainable 14B
bad "format unknown"          'error: --format: "xml" is not one of table, json, markdown' -- --format xml
bad "format with newline"     'error: --format: "x?y" is not one of table, json, markdown' -- --format $'x\ny'
bad "units unknown"           'error: --units: "TB" is not one of GB, GiB, both' -- --units TB
bad "unknown option"          'error: unknown option --gpu-count (see --help)' -- --gpu-count 3
bad "unknown 100 KB option"   "error: unknown option --${big_garbage:0:40}... (see --help)" -- "--$big_garbage"
bad "bare double dash"        'error: unknown option -- (see --help)' -- --
bad "positional argument"     'error: unexpected argument "13B" (options start with --)' -- 13B
bad "single dash option"      'error: unexpected argument "-p" (options start with --)' -- -p 13B
bad "first error wins"        'error: --params: is not a number' -- --params x --bytes y
bad "zero stage 1.5"          'error: --zero: must be 0, 1, 2 or 3' -- --zero 1.5
bad "gpus fraction"           'error: --gpus: must be a whole number' -- --gpus 2.5
bad "gpus 1e30"               'error: --gpus: is too large (at most 100,000)' -- --gpus 1e30
bad "gpu-memory without unit" 'error: --gpu-memory: needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB' -- --gpu-memory 80
bad "gpu-memory 1e30GB"       'error: --gpu-memory: is too large (at most 1 PiB)' -- --gpu-memory 1e30GB
bad "dtype with newline"      "error: --dtype: \"a?b\" is not a known format $formats" -- --dtype $'a\nb'
bad "unknown model"           'error: --model: unknown model "llama-2-7" (did you mean llama-2-7b? see --list-models)' -- --model llama-2-7
bad "context without a model" 'error: --context: the KV cache needs a model architecture (--model or --config)' -- --context 4096
bad "context 1e30"            'error: --context: is too large (at most 100M tokens)' -- --model llama-2-7b --context 1e30
bad "lora-rank fraction"      'error: --lora-rank: must be a whole number' -- --model llama-2-7b --lora-rank 7.5

# config.json files: missing, a directory, endless, empty, truncated, 100,000 deep, 10 MB, wrong types.
tmp=$(mktemp -d)
trap 'rm -f "$errfile"; rm -rf "$tmp"' EXIT
head -c 60 <<<'{"model_type":"llama","num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000}' >"$tmp/truncated.json"
{ head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; } >"$tmp/deep.json"
{ printf '{"pad":"'; head -c 10485760 /dev/zero | tr '\0' 'x'; printf '"}'; } >"$tmp/big.json"
: >"$tmp/empty.json"
printf '{"model_type":"llama","hidden_size":"4096","num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008}' >"$tmp/string.json"
bad "config missing file"     "error: --config: cannot read \"$tmp/nope.json\"" -- --config "$tmp/nope.json"
bad "config is a directory"   "error: --config: \"$tmp\" is not a readable file" -- --config "$tmp"
bad "config empty file"       "error: --config: $tmp/empty.json: is empty" -- --config "$tmp/empty.json"
bad "config endless stream"   'error: --config: /dev/zero: is larger than 4 MB' -- --config /dev/zero
bad "config truncated"        "error: --config: $tmp/truncated.json: not valid JSON (truncated or malformed) at byte 61" -- --config "$tmp/truncated.json"
bad "config 100,000 deep"     "error: --config: $tmp/deep.json: nested deeper than 64 levels" -- --config "$tmp/deep.json"
bad "config 10 MB"            "error: --config: $tmp/big.json: is larger than 4 MB" -- --config "$tmp/big.json"
bad "config number as string" "error: --config: $tmp/string.json: hidden_size: must be a number (got a string)" -- --config "$tmp/string.json"
# An unknown model_type whose experts the Llama-style estimate cannot count: refused (exit 2), fields named.
printf '{"model_type":"my_moe","hidden_size":2048,"num_hidden_layers":48,"num_attention_heads":32,"vocab_size":151936,"intermediate_size":6144,"num_experts":128,"num_experts_per_tok":8,"moe_intermediate_size":768}' >"$tmp/unknown_moe.json"
bad "config unknown MoE"      "error: --config: $tmp/unknown_moe.json: model_type \"my_moe\" is not known, and these fields change the count in ways the Llama-style estimate does not model: num_experts (routed experts), moe_intermediate_size (expert width), num_experts_per_tok (experts per token). Use a known model_type or --params" -- --config "$tmp/unknown_moe.json"

# practice answers (llm-memory check)
bad "answer not an amount"    'error: --answer: "banana" is not an amount of memory; write a number with a unit, e.g. 16.8 GB, 15.65 GiB, 1.68e10 bytes or 16,800 MB' -- check --question weight --answer banana
bad "answer empty"            'error: --answer: is empty; write an amount such as 16.8 GB, 15.65 GiB or 1.68e10 bytes' -- check --question weight --answer ''
bad "answer 1e999 GB"         'error: --answer: "1e999GB" is too large (more than 2^64 bytes)' -- check --question weight --answer 1e999GB
bad "answer negative"         'error: --answer: "-5 GB" is negative; memory cannot be below zero' -- check --question weight --answer '-5 GB'
bad "answer with bad state"   'error: --state: params: is not a number' -- check --question weight --answer '14 GB' --state 'params=abc'

# --state is strict on the command line, exactly like the flags it stands for (cli/state_arg.hpp): the first
# bad pair is the error; the combination is checked once every option is read and names who set the key.
too_many='trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model'
bad "state bad value"         'error: --state: params: is not a number' -- --state 'params=abc' --format json
bad "state unknown key"       'error: --state: unknown setting "colour"' -- --state 'params=7B&colour=blue'
bad "state first problem"     'error: --state: bytes: is not a finite number' -- --state 'params=7B&bytes=nan&colour=blue'
bad "state combination"       "error: --state: $too_many" -- --state 'params=7B&trainable=8B'
bad "state after a flag"      "error: --state: $too_many" -- --params 7B --state 'trainable=8B'
bad "flag after state"        "error: --$too_many" -- --state 'params=7B' --trainable 8B
bad "state 100 KB value"      'error: --state: params: is too large (at most 1000T = 10^15)' -- --state "params=$big_digits"
bad "state 100 KB garbage"    "error: --state: unknown setting \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"" -- --state "$big_garbage"
bad "check state unknown key" 'error: --state: unknown setting "colour"' -- check --question weight --answer '14 GB' --state 'colour=blue'
bad "check state combination" "error: --state: $too_many" -- check --question training --answer '1 GB' --state 'params=7B&trainable=8B'
bad "tensor split parts"       'error: --tensor-split: has 3 parts for 2 GPUs (give one proportion per GPU, e.g. 3,1 for --gpus 2)' -- --gpus 2 --tensor-split 1,1,1 --gpu rtx-4090
bad "tensor split zero part"   'error: --tensor-split: part 2 must be greater than zero' -- --gpus 2 --tensor-split 3,0
# llm-memory fit: a question that is unknown, has no GPU, needs a model or has no answer names its option.
bad "fit maximize unknown"    'error: --maximize: "speed" is not one of context, batch, seq-len, micro-batch' -- fit --maximize speed --gpu rtx-4090
bad "fit minimize unknown"    'error: --minimize: "cost" is not one of gpus, bytes' -- fit --minimize cost --gpu rtx-4090
bad "fit maximize no value"   'error: --maximize: needs a value' -- fit --gpu rtx-4090 --maximize
bad "fit without a GPU"       'error: --maximize context: needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)' -- fit --model llama-2-7b --maximize context
bad "fit all without a GPU"   'error: fit: needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)' -- fit --params 7B
bad "fit never fits"          'error: --maximize context: even 1 token needs 139.03 GB per GPU, more than the 25.77 GB of each GPU (the weights alone are 137.95 GB)' -- fit --model llama-2-70b --gpu rtx-4090 --maximize context
bad "fit context no model"    'error: --maximize context: the KV cache needs a model architecture (--model or --config)' -- fit --params 7B --gpu rtx-4090 --maximize context
bad "fit batch no context"    "error: --maximize batch: needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context" -- fit --model llama-2-7b --gpu rtx-4090 --maximize batch
bad "fit gpus never fit"      'error: --minimize gpus: nothing fits. Training: no number of GPUs fits at ZeRO stage 0: each GPU keeps 8000000 GB of model states that the stage does not split. Inference: no number of GPUs fits (at most 100,000).' -- fit --params 1000T --gpu-memory 1GiB --minimize gpus
bad "fit layers no model"     'error: --layers-on-gpu: needs a model architecture (--model, --config or --gguf) to count its layers' -- fit --params 7B --gpu rtx-4090 --layers-on-gpu
bad "fit layers with value"   'error: --layers-on-gpu: takes no value' -- fit --gpu rtx-4090 --layers-on-gpu=3
bad "fit confidence unknown"  'error: --confidence: "sure" is not safe or typical' -- fit --confidence sure --gpu rtx-4090
bad "fit markdown"            'error: --format: fit prints table or json' -- fit --format markdown --gpu rtx-4090
bad "fit bad scenario flag"   'error: --params: is not a number' -- fit --gpu rtx-4090 --params abc
bad "fit bad state"           'error: --state: params: is not a number' -- fit --state 'params=abc' --gpu rtx-4090
bad "fit bad gpu"             'error: --gpu: "rtx-9999" is not a known GPU (rtx-3060, rtx-3090, rtx-4060-ti-16gb, rtx-4070, rtx-4080, rtx-4090, rtx-5080, rtx-5090, rtx-a6000, l40s, t4, l4, v100-16gb, v100-32gb, a100-40gb, a100-80gb, h100-80gb, h200, mi300x, apple-16gb, apple-32gb, apple-36gb, apple-64gb, apple-96gb, apple-128gb, apple-192gb; or give --gpu-memory)' -- fit --gpu rtx-9999 --maximize context
# ... and order does not matter, as for the flags.
count=$((count + 1))
out=$("$bin" --state 'trainable=20B' --params 70B --format json 2>"$errfile"); status=$?; err=$(cat "$errfile")
if [[ $status == 0 && -z "$err" && "$out" == *'"gradient_optimizer_bytes":120000000000,'* ]]; then echo "ok   state before a flag"
else echo "FAIL state before a flag: status $status, stderr '$err', stdout ${out:0:100}"; fail=1; fi

# Training as it runs: each bad value or impossible combination names its flag.
bad "seq-len 10^12"           'error: --seq-len: is too large (at most 100M tokens)' -- --model llama-2-7b --training-mode detailed --seq-len 1000000000000
bad "micro-batch zero"        'error: --micro-batch: must be at least 1' -- --micro-batch 0
bad "recompute unknown"       'error: --recompute: "partial" is not none, selective, full or op-selective' -- --recompute partial
bad "attention unknown"       'error: --attention: "xformers" is not flash or eager' -- --attention xformers
bad "loss unknown"            'error: --loss: "fused" is not full, chunked or half' -- --loss fused
bad "training-mode unknown"   'error: --training-mode: "fast" is not simple or detailed' -- --training-mode fast
bad "tp not dividing heads"   "error: --tp: 3 does not divide the model's 32 attention heads (each tensor-parallel rank holds whole heads)" -- --model llama-2-7b --training-mode detailed --tp 3 --gpus 3
bad "pp above layers"         "error: --pp: 40 pipeline stages is more than the model's 32 layers (each stage needs at least one)" -- --model llama-2-7b --training-mode detailed --pp 40 --gpus 40
bad "fsdp-prefetch too large" 'error: --fsdp-prefetch: is too large (at most 64)' -- --model llama-3-8b --training-mode detailed --gpus 2 --zero 3 --fsdp-prefetch 65
bad "zero-bucket negative"    'error: --zero-bucket: must not be negative' -- --model llama-3-8b --training-mode detailed --zero 2 --zero-bucket -1
bad "zero-bucket not number"  'error: --zero-bucket: is not a number' -- --model llama-3-8b --training-mode detailed --zero 2 --zero-bucket banana
bad "adapter-dtype unknown"   'error: --adapter-dtype: "int8" is not fp32 or bf16 (or fp16)' -- --model llama-3-8b --lora-rank 16 --adapter-dtype int8
bad "optimizer-impl unknown" 'error: --optimizer-impl: "adam" is not foreach or fused' -- --model llama-3-8b --training-mode detailed --optimizer-impl adam
bad "grad-accum zero"         'error: --grad-accum: must be at least 1' -- --model llama-3-8b --training-mode detailed --grad-accum 0
bad "grad-accum too large"    'error: --grad-accum: is too large (at most 1,000,000)' -- --model llama-3-8b --training-mode detailed --grad-accum 1000001
bad "upcast not a bool"       'error: --upcast-nonquantized: "maybe" is not true or false' -- --model llama-3-8b --lora-rank 16 --qlora --upcast-nonquantized maybe
bad "gpus not tp x pp"        'error: --gpus: 1 GPU is not a multiple of tp × pp = 2 (the GPUs of one model replica); set --gpus to a multiple of 2' -- --model llama-2-7b --training-mode detailed --tp 2
bad "detailed without model"  'error: --training-mode: detailed needs a model architecture (--model or --config): the activations need its layers, hidden size, FFN width and gating, KV heads, vocabulary and dropout' -- --training-mode detailed
bad "eager at 10^8 tokens"    'error: --seq-len: the activations come to more than 1 EiB; lower seq-len or micro-batch' -- --model llama-2-7b --training-mode detailed --seq-len 100000000 --attention eager
bad "framework no unit"       'error: --framework-overhead: needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB (or auto)' -- --framework-overhead 1
bad "allocator margin 101%"   'error: --allocator-margin: is too large (at most 100%)' -- --allocator-margin 101%

# Pasted lookalikes that mean what they look like: a no-break space and a narrow no-break space.
count=$((count + 1))
out=$("$bin" --params $'13\u00a0B' --bytes $'\u202f2' --format json 2>"$errfile"); status=$?; err=$(cat "$errfile")
if [[ $status == 0 && -z "$err" && "$out" == *'"weight_bytes":26000000000,'* ]]; then echo "ok   pasted spaces"
else echo "FAIL pasted spaces: status $status, stderr '$err', stdout ${out:0:100}"; fail=1; fi

# The largest accepted inputs: exact bytes, no negative, NaN or inf anywhere (overflow policy).
count=$((count + 1))
out=$("$bin" --params 1000T --bytes 64 --overhead 100 --k 100 --state-bytes 64 --format json 2>"$errfile"); status=$?
want='"weight_bytes":64000000000000000,"inference_bytes":6400000000000000000,"gradient_optimizer_bytes":6400000000000000000,"training_bytes":6464000000000000000'
if [[ $status == 0 && "$out" == *"$want"* && "$out" != *:-* && "$out" != *:nan* && "$out" != *:inf* ]]; then echo "ok   largest inputs"
else echo "FAIL largest inputs: status $status: ${out:0:400}"; fail=1; fi

echo "cli_hardening: $count cases"
exit $fail

#!/usr/bin/env bash
# VLMEvalKit and lmms-eval evaluate `gam serve` (the built-in model) with their own OpenAI-API model classes, on the
# bundled questions (bench/demo.tsv: `gam demo`'s 60), for the methods single and gam, and their verdicts and
# accuracies are compared with `gam eval`'s on the same answers and `gam grade`'s on the same predictions
# (docs/harnesses.md). VLMEvalKit runs twice: LMDeployAPI (what `run.py --base-url` builds) and GPT4V (a --config
# entry); lmms-eval once: its `openai` model (OpenAICompatible).
#
#   bench/harnesses.sh [--fixtures]
#
# The harnesses run from their public sources at the commits pinned below (cloned into $HARNESS_HOME/src unless a
# checkout is already there), in a virtual environment at $HARNESS_HOME/env holding only what their request and
# scoring path imports (bench/harnesses/requirements.txt); bench/harnesses/harness_imports.py says which imports
# off that path are stubbed. HARNESS_HOME defaults to target/harnesses. Every request a harness sends passes through a
# recorder (bench/harnesses/capture.py) on its way to `gam serve`; --fixtures copies one question's recorded requests
# into gam-cli/src/test/resources/harness-requests for HarnessRecordedRequestTest.
# Output: the table on stdout and in $OUT/table.md (OUT defaults to target/harnesses-run).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

VLMEVALKIT_REPO=https://github.com/open-compass/VLMEvalKit
VLMEVALKIT_COMMIT=e8e78f05f3080fe28154f2130321f17951c3be94
LMMS_EVAL_REPO=https://github.com/EvolvingLMMs-Lab/lmms-eval
LMMS_EVAL_COMMIT=75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3
METHODS=single,gam
DATASET=GAM_demo

home=${HARNESS_HOME:-$root/target/harnesses}
out=${OUT:-$root/target/harnesses-run}
fixtures=""
[[ "${1:-}" == --fixtures ]] && fixtures=$root/gam-cli/src/test/resources/harness-requests

checkout() {  # checkout DIR REPO COMMIT
  local dir=$1 repo=$2 commit=$3
  if [[ ! -d "$dir" ]]; then
    git clone -q "$repo" "$dir"
    git -C "$dir" checkout -q "$commit"
  fi
  if [[ -d "$dir/.git" ]] && [[ "$(git -C "$dir" rev-parse HEAD)" != "$commit" ]]; then
    echo "harnesses: $dir is not at $commit" >&2; exit 1
  fi
}
checkout "$home/src/VLMEvalKit" "$VLMEVALKIT_REPO" "$VLMEVALKIT_COMMIT"
checkout "$home/src/lmms-eval" "$LMMS_EVAL_REPO" "$LMMS_EVAL_COMMIT"
if [[ ! -x "$home/env/bin/python" ]]; then
  python3 -m venv "$home/env"
  "$home/env/bin/pip" install -q -r bench/harnesses/requirements.txt
fi
py=$home/env/bin/python

free_port() { "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

rm -rf "$out"; mkdir -p "$out/LMUData"
cp gam-bench/src/main/resources/bench/demo.tsv "$out/LMUData/$DATASET.tsv"
./gam --version >/dev/null  # builds the jar when the sources changed

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

port=$(free_port)
./gam serve --port "$port" --trace-db "$out/traces.db" >"$out/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "harnesses: gam serve did not start:" >&2; cat "$out/serve.log" >&2; exit 1; }

record() {  # record HARNESS: starts the recorder in front of gam serve on port $p
  p=$(free_port)
  "$py" "$root/bench/harnesses/capture.py" "$p" "$port" "$out/$1/requests" >"$out/$1.capture.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 50); do (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.2; done
}

cd bench/harnesses
for run in vlmevalkit-base-url:LMDeployAPI vlmevalkit:GPT4V; do
  record "${run%%:*}"
  "$py" run_vlmevalkit.py "$home/src/VLMEvalKit" "http://127.0.0.1:$p/v1" "$out/LMUData" "$DATASET" "$out/${run%%:*}" \
      "${run#*:}" ${METHODS//,/ } >"$out/${run%%:*}.log" 2>&1 || { tail -30 "$out/${run%%:*}.log" >&2; exit 1; }
done
record lmms-eval
"$py" run_lmms_eval.py "$home/src/lmms-eval" "http://127.0.0.1:$p/v1" "$out/LMUData/$DATASET.tsv" "$out/lmms-eval" \
    ${METHODS//,/ } >"$out/lmms-eval.log" 2>&1 || { tail -30 "$out/lmms-eval.log" >&2; exit 1; }
cd "$root"

{
  echo "bench/harnesses.sh, $(date -u +%Y-%m-%d), gam commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- gam-*/src/main || echo ' (main sources changed)')"
  echo "VLMEvalKit $VLMEVALKIT_COMMIT, lmms-eval $LMMS_EVAL_COMMIT; Python $("$py" -c 'import sys; print(sys.version.split()[0])')"
  echo "packages: $("$py" -m pip freeze 2>/dev/null | grep -i -E '^(openai|requests|httpx2?|pandas|numpy|pillow)==' | tr '\n' ' ')"
  echo
  "$py" bench/harnesses/compare.py "$root/gam" "$out" "$METHODS" ${fixtures:+--fixtures "$fixtures"}
} | tee "$out/table.md"

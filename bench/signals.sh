#!/usr/bin/env bash
# GAM's uncertainty signal when the server gives no log-probs (docs/GAM.md, "Without log-probs"), on the built-in
# model: the same questions served with log-probs (Φ_gen), without them (the `semantic` fallback), and without them
# with the `sampling` fallback. Prints the eval table row of each run (accuracy, rounds, calls/q, tokens/q, ECE), then
# the same runs as one Markdown table (docs/GAM.md, "The sampling fallback measured").
# Usage: bench/signals.sh [--samples N] [DATA.tsv ...]   (default: the demo set; N: gam.samples, default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
samples=3
if [[ "${1:-}" == "--samples" ]]; then samples="${2:?--samples needs a number}"; shift 2; fi
data=("$@")
[[ ${#data[@]} -gt 0 ]] || data=("gam-bench/src/main/resources/bench/demo.tsv")
for d in "${data[@]}"; do [[ -f "$d" ]] || { echo "bench/signals.sh: no data file $d" >&2; exit 2; }; done

./gam --version >/dev/null # builds the launcher jar once, before two servers start from it
# the Markdown table is printed by a test class of gam-eval; one Maven session builds it and writes its test classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
port_lp="${GAM_BENCH_PORT:-18188}"; port_nolp=$((port_lp + 1))
for p in "$port_lp" "$port_nolp"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "bench/signals.sh: port $p is in use (set GAM_BENCH_PORT)" >&2; exit 2; fi
done
out="target/signals"; mkdir -p "$out"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
./gam local-server --port "$port_lp" > "$out/server-logprobs.log" 2>&1 & pids+=($!)
./gam local-server --port "$port_nolp" --no-logprobs > "$out/server-nologprobs.log" 2>&1 & pids+=($!)
for p in "$port_lp" "$port_nolp"; do
  for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.5; done
  (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "bench/signals.sh: the local server on port $p did not start; see $out" >&2; exit 1; }
done

source bench/lib/eval-run.sh
runs=()
run() { # name, label, server (logprobs or nologprobs), port, extra args...
  local name="$1" label="$2" server="$3" port="$4"; shift 4
  local dir="$out/$(basename "${d%.*}")-$name"
  bench_eval "local-server-$server" "$dir" "$dir.log" "$d" gam --backend openai --base-url "http://127.0.0.1:$port/v1" "$@"
  if [[ -z "${header:-}" ]]; then header="$(grep -m1 '^method ' "$dir.log")"; printf '%-20s %-16s %s\n' "data" "signal" "$header"; fi
  printf '%-20s %-16s %s\n' "$(basename "$d")" "$name" "$(grep -m1 '^gam ' "$dir.log")"
  runs+=("$(basename "$d"), $label=$dir")
}
for d in "${data[@]}"; do
  run logprobs "log-probs (Φ_gen)" logprobs "$port_lp"
  run semantic semantic nologprobs "$port_nolp"
  run "sampling-n$samples" "sampling, n = $samples" nologprobs "$port_nolp" --set gam.uncertainty_fallback=sampling --set "gam.samples=$samples"
done
echo
echo "## The signals on the built-in model"
echo
java -cp "$cp" dev.gamagent.eval.BenchTables methods --methods=gam "${runs[@]}"
echo
echo "runs in $out/ (results.jsonl, summary.json, report.html each)"

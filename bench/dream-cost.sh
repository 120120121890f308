#!/usr/bin/env bash
# DREAM's cost per part (probe round, each debate round, each branch) next to the method it wraps, on the demo set with
# the built-in model and on the model-server simulator (gam bench serve-sim): prints, per setting, the prompt tokens per
# question of each part with the image tokens among them (Qwen2.5-VL's processor rule, image.tokens), the
# dream+debate / debate prompt-token ratio (DREAM Table 4: 1.30) and, on the built-in model, DREAM's accuracy gain beside
# it. Two settings: the default (every branch debates) and dream.consensus_skips_debate=true (probes that all agree end
# the question). Then the same ratio on the simulator with the image tokens of each model family the papers ran
# (--image-tokens: Qwen2.5-VL as served and as VLMEvalKit sets it, InternVL3, Gemma 3, LLaVA-NeXT, OpenAI tiles).
# docs/performance.md ("DREAM's cost") is this script's output.
# Usage: bench/dream-cost.sh [DATA.tsv]   (default: the demo set; about 10 minutes on 2 idle cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
data="${1:-gam-bench/src/main/resources/bench/demo.tsv}"
[[ -f "$data" ]] || { echo "bench/dream-cost.sh: no data file $data" >&2; exit 2; }
./gam --version >/dev/null # builds the launcher jar once
# the tables are printed by a test class of gam-eval; one Maven session builds it and writes its test classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
out="target/dream-cost"; mkdir -p "$out"
port="${GAM_BENCH_PORT:-18288}"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "bench/dream-cost.sh: port $port is in use (set GAM_BENCH_PORT)" >&2; exit 2; fi

source bench/lib/eval-run.sh
model=local # what answers: the built-in model, or the simulator with its image-token family
run() { # name, methods, extra args...
  local name="$1" methods="$2"; shift 2
  bench_eval "$model" "$out/$name" "$out/$name.log" "$data" "$methods" "$@"
}
run local debate,dream+debate,gam,dream+gam
run local-skip debate,dream+debate --set dream.consensus_skips_debate=true

sim=""
trap '[[ -n "$sim" ]] && kill "$sim" 2>/dev/null || true' EXIT
simulator() { # image-token family: (re)starts the simulator counting images as that family's processor does
  if [[ -n "$sim" ]]; then kill "$sim" 2>/dev/null || true; wait "$sim" 2>/dev/null || true; fi
  ./gam bench serve-sim --port "$port" --latency-ms 0 --slots 64 --ceiling-seconds 0 --image-tokens "$1" > "$out/simulator-$1.log" 2>&1 &
  sim=$!
  model="sim-$1"
  for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0; sleep 0.5; done
  echo "bench/dream-cost.sh: the simulator did not start; see $out/simulator-$1.log" >&2; exit 1
}
sim_flags=(--backend openai --base-url "http://127.0.0.1:$port/v1" --model gam-sim)
simulator qwen
run sim debate,dream+debate,gam,dream+gam "${sim_flags[@]}"
run sim-skip debate,dream+debate "${sim_flags[@]}" --set dream.consensus_skips_debate=true
families=(qwen-vlmevalkit internvl gemma3 llava-next openai)
for f in "${families[@]}"; do
  simulator "$f"
  run "sim-$f" debate,dream+debate "${sim_flags[@]}"
done

echo "# DREAM's cost per part on $(basename "$data"), $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## Image tokens of the demo's smallest and largest image at DREAM's scales, by family"
echo
java -cp "$cp" dev.gamagent.eval.BenchTables imagetokens 448x336 768x576
echo
echo "## Where the tokens go"
java -cp "$cp" dev.gamagent.eval.BenchTables dream --methods=debate,dream+debate,gam,dream+gam --image-tokens=qwen \
  "built-in model=$out/local"
java -cp "$cp" dev.gamagent.eval.BenchTables dream --methods=debate,dream+debate --image-tokens=qwen \
  "built-in model, dream.consensus_skips_debate=true=$out/local-skip"
java -cp "$cp" dev.gamagent.eval.BenchTables dream --methods=debate,dream+debate,gam,dream+gam --synthetic --image-tokens=qwen \
  "simulator=$out/sim"
java -cp "$cp" dev.gamagent.eval.BenchTables dream --methods=debate,dream+debate --synthetic --image-tokens=qwen \
  "simulator, dream.consensus_skips_debate=true=$out/sim-skip"
echo
echo "## The ratio by model family (simulator, --image-tokens)"
echo
ratio_runs=("qwen=$out/sim")
for f in "${families[@]}"; do ratio_runs+=("$f=$out/sim-$f"); done
java -cp "$cp" dev.gamagent.eval.BenchTables dreamratios --methods=debate,dream+debate,gam,dream+gam "${ratio_runs[@]}"
echo
echo "runs in $out/ (results.jsonl, summary.json, report.html each)"

#!/usr/bin/env bash
# The tables of figures in docs/GAM.md about the gam method on the built-in model: the debate trigger rate by Φ_gen
# scoring (content, all, answer-span) and the paper's ablations (no uncertainty, no dynamic weights, no debate, fixed
# rounds) next to full gam, each on the demo set and on a held-out set of hard questions (generated with a seed no
# development used). Prints Markdown tables (accuracy, debates started, mean rounds, terminations, calls, tokens, ECE).
# Usage: bench/gam-tables.sh [--seed S] [--n N]   (default seed 2626, 120 hard questions; about 6 minutes on 2 idle cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seed=2626; n=120
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seed) seed="${2:?--seed needs a number}"; shift 2 ;;
    --n) n="${2:?--n needs a number}"; shift 2 ;;
    *) echo "usage: bench/gam-tables.sh [--seed S] [--n N]" >&2; exit 2 ;;
  esac
done
./gam --version >/dev/null # builds the launcher jar once
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
out="target/gam-tables"; mkdir -p "$out"
demo="gam-bench/src/main/resources/bench/demo.tsv"
hard="$out/hard-$seed.tsv"
./gam bench generate --n "$n" --seed "$seed" --hard-fraction 1.0 --render classic --out "$hard" > /dev/null

source bench/lib/eval-run.sh
run() { # name, data, extra args...
  local name="$1" data="$2"; shift 2
  bench_eval local "$out/$name" "$out/$name.log" "$data" gam "$@"
}
scoring=(); ablation=()
for set in demo hard; do
  data="$demo"; [[ "$set" == hard ]] && data="$hard"
  for s in content all answer-span; do
    # the default scoring (content) is the defaults' run, which other scripts share
    if [[ "$s" == content ]]; then run "$set-scoring-$s" "$data"; else run "$set-scoring-$s" "$data" --set "gam.scoring=$s"; fi
    label="$s"; [[ "$s" == content ]] && label="content (default)"
    scoring+=("$set, scoring=$label=$out/$set-scoring-$s")
  done
  ablation+=("$set, full gam=$out/$set-scoring-content")
  for a in no_uncertainty no_dynamic_weights no_debate fixed_rounds; do
    run "$set-$a" "$data" --set "gam.ablation.$a=true"; ablation+=("$set, $a=$out/$set-$a")
  done
done
echo "# gam on the built-in model, $(date -u +%Y-%m-%d): demo = $demo, hard = gam bench generate --n $n --seed $seed --hard-fraction 1.0 --render classic"
echo
echo "## Debate trigger rate by scoring"
echo
java -cp "$cp" dev.gamagent.eval.BenchTables methods --methods=gam "${scoring[@]}"
echo
echo "## Ablations"
echo
java -cp "$cp" dev.gamagent.eval.BenchTables methods --methods=gam "${ablation[@]}"
echo
echo "runs in $out/"

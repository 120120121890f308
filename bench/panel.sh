#!/usr/bin/env bash
# The panel figures of docs/local-model.md ("The panel measured"): single, vote, debate, gam and dream+gam with the
# built-in model on fresh generated sets (300 questions, half of them hard, seeds never used while developing the
# panel), the eval table of each seed and the accuracy per difficulty tier.
# Usage: bench/panel.sh [SEED ...]   (default: 4242 9090 31337; about 7 minutes per seed on 2 idle cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seeds=("$@"); [[ ${#seeds[@]} -gt 0 ]] || seeds=(4242 9090 31337)
./gam --version >/dev/null # builds the launcher jar once
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
out="target/panel"; mkdir -p "$out"
runs=()
for s in "${seeds[@]}"; do
  dir="$out/s$s"
  rm -rf "$dir"; mkdir -p "$dir" # this script's own output: a new run each time
  ./gam bench generate --n 300 --seed "$s" --hard-fraction 0.5 --out "$dir/data.tsv" > /dev/null
  echo "== seed $s: gam eval --methods single,vote,debate,gam,dream+gam" >&2
  ./gam eval --data "$dir/data.tsv" --methods single,vote,debate,gam,dream+gam --out "$dir" > "$dir.log" 2>&1 \
    || { echo "bench/panel.sh: the seed $s run failed; see $dir.log" >&2; exit 1; }
  echo "## seed $s: ./gam bench generate --n 300 --seed $s --hard-fraction 0.5 --out data.tsv; ./gam eval --data data.tsv --methods single,vote,debate,gam,dream+gam"
  echo '```'
  sed -n '/^method /,/^$/p' "$dir.log"
  echo '```'
  runs+=("seed $s=$dir")
done
echo
echo "## Accuracy per tier (%, questions in brackets)"
java -cp "$cp" dev.gamagent.eval.BenchTables tiers "${runs[@]}"
echo
echo "runs in $out/"

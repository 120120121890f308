#!/usr/bin/env bash
# The built-in model's low-level behaviour against the ranges measured on real models (docs/local-model.md,
# "A fair testbed"): how often 10 samples at temperature 0.7 disagree (`sc`), and how often a debater switches
# when all its peers disagree with it, right to wrong and wrong to right (`debate`, the defaults: 3 agents,
# 2 rounds, temperature 0.7). Prints each rate with its 95 % interval and whether it is inside the cited range.
# Usage: bench/testbed.sh [--debate METHOD] [--markdown] [DATA.tsv ...]   (default: the demo set; METHOD: the debate
# measured; --markdown: the table of docs/local-model.md, one row per data file and one for all together)
# Extra `gam eval` flags go in GAM_TESTBED_FLAGS (e.g. "--limit 100").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
debate=debate
fmt=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --debate) debate="${2:?--debate needs a method name}"; shift 2 ;;
    --markdown) fmt=(--markdown); shift ;;
    *) break ;;
  esac
done
data=("$@")
[[ ${#data[@]} -gt 0 ]] || data=("gam-bench/src/main/resources/bench/demo.tsv")
for d in "${data[@]}"; do [[ -f "$d" ]] || { echo "bench/testbed.sh: no data file $d" >&2; exit 2; }; done

./gam --version >/dev/null # builds the launcher jar once
out="target/testbed"; mkdir -p "$out"
dirs=()
for d in "${data[@]}"; do
  dir="$out/$(basename "${d%.*}")"
  rm -rf "$dir" # this script's own output: a new run each time
  echo "bench/testbed.sh: $d -> $dir (sc with 10 samples, $debate)" >&2
  # shellcheck disable=SC2086
  ./gam eval --data "$d" --methods "sc,$debate" --set sc.samples=10 --out "$dir" ${GAM_TESTBED_FLAGS:-} > "$dir.log" 2>&1 \
    || { echo "bench/testbed.sh: the run on $d failed; see $dir.log" >&2; exit 1; }
  dirs+=("$dir")
done
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-local -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp_local="gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)"
java_bin="${GAM_JAVA:-java}"
"$java_bin" -cp "$cp_local" dev.gamagent.local.TestbedRates --debate "$debate" "${fmt[@]}" "${dirs[@]}"
echo "runs in $out/ (results.jsonl, summary.json, report.html each)"

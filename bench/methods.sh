#!/usr/bin/env bash
# The tables of figures in docs/methods.md, on the demo set with the built-in model: the papers' comparators (single,
# mad, div-mad, dwi and DREAM around the last two) and DREAM's branch shares for dream+gam and dream+debate (with the
# agreement flag beside the branch, so the shares compare with DREAM's Figure 4).
# Usage: bench/methods.sh [DATA.tsv]   (default: the demo set; about 5 minutes on 2 idle cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
data="${1:-gam-bench/src/main/resources/bench/demo.tsv}"
[[ -f "$data" ]] || { echo "bench/methods.sh: no data file $data" >&2; exit 2; }
./gam --version >/dev/null # builds the launcher jar once
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
out="target/methods"; mkdir -p "$out"
source bench/lib/eval-run.sh
run() { # name, methods
  bench_eval local "$out/$1" "$out/$1.log" "$data" "$2"
}
comparators=single,mad,div-mad,dwi,dream+div-mad,dream+dwi
run comparators "$comparators"
run dream dream+gam,dream+debate
echo "# $(basename "$data") with the built-in model, $(date -u +%Y-%m-%d)"
echo
echo "## The papers' comparators (the eval table)"
echo
echo '```'
sed -n '/^method /,/^$/p' "$out/comparators.log" | sed '/^$/d'
echo '```'
echo
echo "## DREAM's branch shares"
echo
java -cp "$cp" dev.gamagent.eval.BenchTables branches --methods=dream+gam,dream+debate "$(basename "$data")=$out/dream"
echo
echo "runs in $out/"

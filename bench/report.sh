#!/usr/bin/env bash
# The report at benchmark sizes (issue 25): time to write summary.json and report.html (thumbnails, sidecar) for
# 300 and 10,000 questions, as a ratio to writing the same records as results.jsonl in the same run, and the page's
# size (target: under 20 MB at 10,000 questions). The records are a real `gam demo` run's (built-in model),
# renamed and repeated. Usage: bench/report.sh [--run DIR] [N ...]   (default: 300 10000; --run: the records of a
# finished gam eval/demo directory instead of a fresh `gam demo --limit 6`)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
template=""
if [ "${1:-}" = "--run" ]; then template="$2"; shift 2; fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(300 10000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# one Maven session builds gam-eval's tests and what they need, and writes their classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
# templates: a short demo run on the built-in model (every method of the demo, real traces)
if [ -z "$template" ]; then
  template="$work/demo"
  ./gam demo --limit 6 --out "$template" >"$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; exit 1; }
fi
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
java -Xmx2g -Djava.awt.headless=true -cp "$cp" dev.gamagent.eval.bench.ReportScale "$template" "$work/out" "${sizes[@]}"

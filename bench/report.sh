#!/usr/bin/env bash
# The report at benchmark sizes (issue 25): time to write summary.json and report.html (thumbnails, sidecar) for
# 300 and 10,000 questions, as a ratio to writing the same records as results.jsonl in the same run, and the page's
# size (target: under 20 MB at 10,000 questions). The records are a real `gam demo` run's (built-in model),
# renamed and repeated. Usage: bench/report.sh [N ...]   (default: 300 10000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(300 10000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# one Maven session builds gam-eval's tests and what they need, and writes their classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
# templates: a short demo run on the built-in model (every method of the demo, real traces)
./gam demo --limit 6 --out "$work/demo" >"$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; exit 1; }
cp="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
java -Xmx2g -Djava.awt.headless=true -cp "$cp" dev.gamagent.eval.bench.ReportScale "$work/demo" "$work/out" "${sizes[@]}"

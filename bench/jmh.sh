#!/usr/bin/env bash
# Builds the test classes and runs the GAM controller-decision JMH benchmark, printing the time per
# decision and its ratio to the majority-vote baseline. Extra arguments go to JMH (e.g. -p agents=3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# gam-local's tests hold the benchmarks; one Maven session builds it and what it needs, and writes its test classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-local -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
cp="gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)"
java -cp "$cp" org.openjdk.jmh.Main 'dev.gamagent.bench.ControllerDecisionBenchmark' \
  -rf json -rff "$json" "$@"
python3 - "$json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
base, gam = {}, {}
for r in rows:
    n = r.get("params", {}).get("agents", "?")
    score, unit = r["primaryMetric"]["score"], r["primaryMetric"]["scoreUnit"]
    (gam if r["benchmark"].endswith("gamDecision") else base)[n] = (score, unit)
print()
print("agents  gam decision        majority vote       ratio")
for n in sorted(gam, key=int):
    g, u = gam[n]
    b, _ = base.get(n, (float("nan"), u))
    print(f"{n:>6}  {g:10.3f} {u:<8} {b:10.4f} {u:<8} {g / b:8.1f}x")
PY

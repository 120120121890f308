#!/usr/bin/env bash
# What reading one OpenAI-compatible reply with log-probs costs the client, three ways in one JMH run
# (dev.gamagent.backend.internal.ReplyParseBenchmark): the whole tree (as before), a tree streamed past the log-prob entries' `bytes`
# arrays (the other wire formats' way) and the reply streamed into its tokens without a tree (OpenAI-compatible replies
# now): µs per reply and the ratios. Extra arguments go to JMH (e.g. -p tokens=200 -p top=20). `--cpu [TOKENS [TOP]]` measures the three
# ways by the thread's CPU time instead, alternately (a machine shared with other work disturbs that less than wall time).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-local -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
if [[ "${1:-}" == "--cpu" ]]; then
  shift
  exec java -cp "gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)" \
    dev.gamagent.backend.internal.ReplyParseBenchmark "$@"
fi
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
cp="gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)"
java -cp "$cp" org.openjdk.jmh.Main 'dev.gamagent.backend.internal.ReplyParseBenchmark' -rf json -rff "$json" "$@"
python3 - "$json" <<'PY'
import json, sys
rows = {}
for r in json.load(open(sys.argv[1])):
    p = r.get("params", {})
    rows.setdefault((p.get("tokens"), p.get("top")), {})[r["benchmark"].rsplit(".", 1)[1]] = r["primaryMetric"]
print()
print("tokens  top   whole tree (µs)   skipping bytes (µs)   streamed (µs)   skipping / whole   streamed / whole")
for (n, k), m in sorted(rows.items(), key=lambda x: (int(x[0][0]), int(x[0][1]))):
    w, s, t = m["wholeTree"], m["skippingBytes"], m["streamed"]
    print(f"{n:>6} {k:>4}   {w['score']:8.1f} ± {w['scoreError']:5.1f}   {s['score']:8.1f} ± {s['scoreError']:5.1f}   "
          f"{t['score']:6.1f} ± {t['scoreError']:5.1f}   {s['score'] / w['score']:12.2f}   {t['score'] / w['score']:12.2f}")
PY

#!/usr/bin/env bash
# What the secret scrubber costs on 1 MB of real traces: makes them once (a `gam eval` of the built-in model on 50
# bundled questions × gam,debate,mad,chateval with trace.prompts, into target/scrub-bench/run), then runs the JMH
# benchmark dev.gamagent.bench.SecretScrubberBenchmark and prints ms per MB and the ratio to String.indexOf of the
# four keys (the least any search costs). Extra arguments go to JMH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
traces=target/scrub-bench/run/results.jsonl
if [[ ! -s "$traces" ]]; then
  mkdir -p target/scrub-bench
  ./gam --version >/dev/null   # builds the jar when needed
  unzip -p gam-cli/target/gam.jar bench/demo.tsv >target/scrub-bench/demo.tsv
  ./gam eval --data target/scrub-bench/demo.tsv --methods gam,debate,mad,chateval --limit 50 --out target/scrub-bench/run \
    --set trace.prompts=true >&2
fi
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-local -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
cp="gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)"
java -Dgam.bench.traces="$root/$traces" -cp "$cp" org.openjdk.jmh.Main 'dev.gamagent.bench.SecretScrubberBenchmark' -rf json -rff "$json" "$@"
python3 - "$json" <<'PY'
import json, sys
rows = {r["benchmark"].rsplit(".", 1)[1]: r["primaryMetric"] for r in json.load(open(sys.argv[1]))}
base = rows["indexOfBaseline"]["score"]
print()
print("scrubbing 1 MB of traces, four keys        ms/MB     ± error   ratio to indexOf")
for name, label in (("oneString", "as one string (a reply body)"), ("traceTrees", "trace by trace, as JSON trees"),
                    ("indexOfBaseline", "String.indexOf of the four keys")):
    m = rows[name]
    print(f"{label:<40} {m['score']:9.3f} {m['scoreError']:9.3f} {m['score'] / base:12.1f}x")
PY

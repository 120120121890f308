#!/usr/bin/env bash
# The golden record of issue 29 (a codebase refactoring that changes no behaviour): the results and traces of
# `gam demo` and of a simulator run with every method, the times taken removed (GoldenRecord: keys sorted, lines in
# a fixed order), kept in bench/golden/ with their SHA-256 in bench/golden/SHA256SUMS. Each refactoring step must leave
# them identical.
# Usage: bench/golden.sh          check the current code against bench/golden/ (exit 1 and a diff on a difference)
#        bench/golden.sh --write  record the current code's as the golden record
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode=check
[[ "${1:-}" == "--write" ]] && mode=write
[[ $# -eq 0 || "$mode" == write ]] || { echo "usage: bench/golden.sh [--write]" >&2; exit 2; }

methods="single,cot,sc,vote,debate,self-debate,mad,dmad,chateval,debunc,gam,dream+gam,dream+debate"
out="target/golden"; rm -rf "$out"; mkdir -p "$out"
./gam --version >/dev/null # builds the launcher jar once
# GoldenRecord is one of gam-bench's test classes; one Maven session builds it and writes that module's test classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-bench -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp_bench="gam-bench/target/test-classes:gam-bench/target/classes:$(cat gam-bench/target/test-classpath.txt)"
java_bin="${GAM_JAVA:-java}"

echo "bench/golden.sh: gam demo" >&2
./gam demo --out "$out/demo" > "$out/demo.log" 2>&1 || { echo "bench/golden.sh: gam demo failed; see $out/demo.log" >&2; exit 1; }

echo "bench/golden.sh: $methods against the simulator (40 generated questions)" >&2
./gam bench generate --n 40 --seed 29 --out "$out/sim.tsv" > /dev/null
./gam bench serve-sim --port 0 --latency-ms 5 --slots 32 > "$out/sim-server.log" 2>&1 &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*/v1' "$out/sim-server.log" | head -1 || true)"
  [[ -n "$url" ]] && break
  sleep 0.2
done
[[ -n "$url" ]] || { echo "bench/golden.sh: the simulator did not start; see $out/sim-server.log" >&2; exit 1; }
./gam eval --data "$out/sim.tsv" --methods "$methods" --backend openai --base-url "$url" --model gam-sim \
  --out "$out/sim" > "$out/sim.log" 2>&1 || { echo "bench/golden.sh: the simulator run failed; see $out/sim.log" >&2; exit 1; }

mkdir -p bench/golden
sums="$out/SHA256SUMS"; : > "$sums"
for run in demo sim; do
  line="$("$java_bin" -cp "$cp_bench" dev.gamagent.bench.golden.GoldenRecord "$out/$run/results.jsonl" "$out/$run.jsonl.gz")"
  echo "$line" >&2
  echo "${line%%  *}  $run.jsonl.gz" >> "$sums"
done
if [[ "$mode" == write ]]; then
  cp "$out/demo.jsonl.gz" "$out/sim.jsonl.gz" "$sums" bench/golden/
  echo "bench/golden.sh: wrote bench/golden/ (demo, sim, SHA256SUMS)" >&2
  exit 0
fi
if diff -u bench/golden/SHA256SUMS "$sums" >&2; then
  echo "bench/golden.sh: identical to the golden record" >&2
else
  for run in demo sim; do
    diff <(gzip -dc "bench/golden/$run.jsonl.gz") <(gzip -dc "$out/$run.jsonl.gz") | head -20 >&2 || true
  done
  echo "bench/golden.sh: DIFFERS from the golden record (bench/golden/); the lines above show where" >&2
  exit 1
fi

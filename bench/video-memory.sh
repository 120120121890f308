#!/usr/bin/env bash
# The memory step of issue 30 (docs/video.md, "Memory: 1,000 video questions"): N video questions (default 1000)
# evaluated at concurrency 16 with `single` against the model-server simulator (gam bench serve-sim), in -Xmx512m as
# docs/performance.md's memory steps run; prints the peak RSS (/usr/bin/time -v) against 1 GiB, the run's errors and
# its wall time. Each row names a folder of 24 PNG frames (gam bench generate --families video) and each question
# reads 8 of them when it starts, as a benchmark row naming a frame folder is read. Drawing 1,000 clips takes about
# 20 minutes on two cores, so CLIPS clips (default 100) are drawn and the N rows cycle through them (row i names clip
# i mod CLIPS, with its own index): every question still loads, encodes and sends its 8 frames itself.
# Usage: bench/video-memory.sh [N] [CLIPS] [OUT]   (GAM_BENCH_PORT: the simulator's port, default 18766;
#        GAM_JAVA_OPTS: the JVM's options, default -Xmx512m; BACKEND=local runs the built-in model instead)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-1000}"
clips="${2:-100}"
out="${3:-$(mktemp -d)}"
port="${GAM_BENCH_PORT:-18766}"
backend="${BACKEND:-sim}"
export GAM_JAVA_OPTS="${GAM_JAVA_OPTS:--Xmx512m}"
command -v jq >/dev/null || { echo "bench/video-memory.sh: needs jq (apt-get install jq)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench/video-memory.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$out"
cd "$root"
if [[ ! -s "$out/clips.jsonl" || "$(wc -l < "$out/clips.jsonl")" -ne "$clips" ]]; then
  ./gam bench generate --n "$clips" --seed 3030 --families video --out "$out/clips.jsonl" >&2
fi
jq -c --argjson n "$n" -s '. as $c | [range(0; $n)] | map(. as $i | $c[$i % ($c | length)] + {index: $i})[]' \
  "$out/clips.jsonl" > "$out/video-$n.jsonl"
flags=(--methods single --concurrency 16)
if [[ "$backend" == sim ]]; then
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "bench/video-memory.sh: port $port is in use (set GAM_BENCH_PORT)" >&2; exit 2; fi
  GAM_JAVA_OPTS= ./gam bench serve-sim --port "$port" --latency-ms 50 --slots 64 > "$out/simulator.log" 2>&1 &
  sim=$!
  trap 'kill "$sim" 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.5; done
  flags+=(--backend openai --base-url "http://127.0.0.1:$port/v1" --model gam-sim)
else
  flags+=(--backend local)
fi
rm -rf "$out/run"
echo "\$ GAM_JAVA_OPTS=$GAM_JAVA_OPTS /usr/bin/time -v ./gam eval --data $out/video-$n.jsonl ${flags[*]} --out $out/run"
/usr/bin/time -v -o "$out/time.txt" ./gam eval --data "$out/video-$n.jsonl" "${flags[@]}" --out "$out/run" > "$out/eval.log" 2>&1 \
  || { echo "bench/video-memory.sh: the run failed; see $out/eval.log" >&2; exit 1; }
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time.txt")
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.txt")
graded=$(jq -s 'length' "$out/run/results.jsonl")
errors=$(jq -s 'map(select(.outcome == "error")) | length' "$out/run/results.jsonl")
frames=$(jq -s 'map(.trace.question.images | length) | add' "$out/run/results.jsonl")
printf '%s questions (%s frames sent), concurrency 16, %s: peak RSS %d MiB (limit 1024 MiB: %s), %s errors, wall %s\n' \
  "$graded" "$frames" "$backend" "$((rss / 1024))" "$([[ $((rss / 1024)) -lt 1024 ]] && echo PASS || echo FAIL)" "$errors" "$wall"

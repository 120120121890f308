#!/usr/bin/env bash
# What the model server computes per method (issue 44): the simulator (gam bench serve-sim) with vLLM-style automatic
# prefix caching at fixed slots and time per token, every method run on generated questions one method at a time, and per
# method the prompt tokens sent and computed per question (read from the simulator's own counters, /sim/stats, so any
# client build can be measured) and the time per question (mean of results.jsonl's millis), each also against `single`.
# The simulator's counters are reset and its cache emptied before each method, so every method starts cold.
# Usage: bench/prefix-cache.sh [--n 40] [--seed 44] [--client-rev REV] [--methods a,b] [--set KEY=VALUE]... [--out DIR]
#   --set KEY=VALUE   a setting for every method's run (gam eval --set), e.g. --set requests.rounds=conversation
#   --client-rev REV  the client is REV's gam, built in a temporary git worktree (the simulator is always this tree's):
#                     the "before" figures of a layout change
# Simulator settings (fixed; docs/performance.md, "What the server computes" states them): 8 slots, 0 ms fixed,
# 0.1 ms per computed prompt token, 5 ms per generated token, a prefix cache of 262,144 tokens in blocks of 16.
# 18 minutes in all at 40 questions with --client-rev on 2 cores at load 25-35 (2026-12-05), about half of it the client's build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n=40 seed=44 rev="" out="target/prefix-cache" sets=()
methods="single,cot,sc,vote,debate,self-debate,mad,dmad,chateval,debunc,gam,dream+gam,dream+debate"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --client-rev) rev="$2"; shift 2 ;;
    --methods) methods="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    *) echo "bench/prefix-cache.sh: unknown argument $1 (use --n, --seed, --client-rev, --methods, --set, --out)" >&2; exit 2 ;;
  esac
done
slots=8 fixed_ms=0 ms_prompt=0.1 ms_output=5 cache_tokens=262144 block=16
port="${GAM_BENCH_PORT:-18344}"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "bench/prefix-cache.sh: port $port is in use (set GAM_BENCH_PORT)" >&2; exit 2; fi
rm -rf "$out"; mkdir -p "$out"
./gam --version >/dev/null # builds this tree's launcher jar: the simulator, and the client unless --client-rev

client="$root/gam" tmp="" sim=""
cleanup() {
  [[ -n "$sim" ]] && kill "$sim" 2>/dev/null || true
  [[ -n "$tmp" ]] && git -C "$root" worktree remove --force "$tmp" 2>/dev/null || true
}
trap cleanup EXIT
modified=""; [[ -z "$(git status --porcelain --untracked-files=no)" ]] || modified=", modified"
client_desc="this tree ($(git rev-parse --short HEAD)$modified)"
if [[ -n "$rev" ]]; then
  commit="$(git rev-parse --verify --quiet "$rev^{commit}")" || { echo "bench/prefix-cache.sh: --client-rev $rev is not a commit" >&2; exit 2; }
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/gam-client-XXXXXX")"
  rmdir "$tmp"
  git worktree add --detach --quiet "$tmp" "$commit"
  echo "bench/prefix-cache.sh: building the client of $rev ($(git rev-parse --short "$commit")) in $tmp" >&2
  (cd "$tmp" && mvn -B -o -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-cli -am package >&2) \
    || { echo "bench/prefix-cache.sh: building $rev failed (run mvn -B -o -DskipTests package in $tmp to see why)" >&2; exit 1; }
  client="$tmp/gam"
  client_desc="$rev ($(git rev-parse --short "$commit"))"
fi

./gam bench generate --n "$n" --seed "$seed" --out "$out/questions.tsv" > /dev/null
./gam bench serve-sim --port "$port" --slots "$slots" --latency-ms "$fixed_ms" --ms-per-prompt-token "$ms_prompt" \
  --ms-per-output-token "$ms_output" --prefix-cache-tokens "$cache_tokens" --block-size "$block" --ceiling-seconds 0 \
  > "$out/simulator.log" 2>&1 &
sim=$!
up=""
for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { up=1; break; }; sleep 0.5; done
[[ -n "$up" ]] || { echo "bench/prefix-cache.sh: the simulator did not start; see $out/simulator.log" >&2; exit 1; }
base="http://127.0.0.1:$port"

: > "$out/rows.tsv"
IFS=',' read -r -a list <<< "$methods"
for m in "${list[@]}"; do
  curl -fsS -X POST "$base/reset_prefix_cache" > /dev/null
  curl -fsS -X POST "$base/sim/stats/reset" > /dev/null
  echo "bench/prefix-cache.sh: $m ($n questions)" >&2
  t0=$(date +%s.%N)
  "$client" eval --data "$out/questions.tsv" --methods "$m" --backend openai --base-url "$base/v1" --model gam-sim \
    ${sets[@]+"${sets[@]}"} --out "$out/$m" > "$out/$m.log" 2>&1 || { echo "bench/prefix-cache.sh: $m failed; see $out/$m.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  curl -fsS "$base/sim/stats" > "$out/$m.stats.json"
  printf '%s\t%s\t%s\n' "$m" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" "$out/$m.stats.json" >> "$out/rows.tsv"
done

echo "# What the server computes per method: $n generated questions (seed $seed), client $client_desc, simulator $(git rev-parse --short HEAD)${sets[*]+, settings: ${sets[*]}}"
echo "# simulator: $slots slots, ${fixed_ms} ms + ${ms_prompt} ms per computed prompt token + ${ms_output} ms per generated token,"
echo "# prefix cache $cache_tokens tokens in blocks of $block, emptied before each method; $(date -u +%Y-%m-%d), $(nproc) cores"
python3 - "$out" "$n" <<'EOF'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
rows = []
for line in open(f"{out}/rows.tsv"):
    m, wall, stats = line.rstrip("\n").split("\t")
    s = json.load(open(stats))
    millis = [json.loads(l).get("millis") for l in open(f"{out}/{m}/results.jsonl") if l.strip()]
    millis = [x for x in millis if isinstance(x, (int, float))]
    rows.append((m, s["prompt_tokens"] / n, s["computed_tokens"] / n, s["token_requests"] / n,
                 sum(millis) / len(millis) / 1000 if millis else float("nan"), float(wall)))
base = next((r for r in rows if r[0] == "single"), None)
print()
print("| method | calls/q | sent/q | computed/q | computed share | time/q (s) | sent × single | computed × single | time × single |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for m, sent, comp, calls, t, wall in rows:
    ratio = lambda a, b: f"{a / b:.2f}" if base and b else "–"
    print(f"| {m} | {calls:.1f} | {sent:,.0f} | {comp:,.0f} | {comp / sent:.0%} | {t:.2f} | "
          f"{ratio(sent, base[1] if base else 0)} | {ratio(comp, base[2] if base else 0)} | {ratio(t, base[4] if base else 0)} |")
print()
for m in ("debate", "gam"):
    r = next((r for r in rows if r[0] == m), None)
    if r and base:
        print(f"{m} against single: sent {r[1] / base[1]:.2f}×, computed {r[2] / base[2]:.2f}×, time per question {r[4] / base[4]:.2f}×")
# Where each method's computed tokens go, round by round: every agent turn of the traces (its request's prompt tokens,
# the server's cached count, its reply's tokens), critics' turns in their round. DREAM's probes are its round 0; a turn
# reused from a probe spent nothing. Calls a trace does not keep per turn (a judge, a moderator) are in the first table only.
print()
print("| method | round | requests/q | sent/q | computed/q | computed × single | reply tokens/q |")
print("|---|---:|---:|---:|---:|---:|---:|")
for m, *_ in rows:
    per = {}
    for line in open(f"{out}/{m}/results.jsonl"):
        if not line.strip():
            continue
        for rd in (json.loads(line).get("trace") or {}).get("rounds", []):
            for a in rd.get("agents", []) + rd.get("critiques", []):
                t = a.get("tokens") or {}
                if not t.get("prompt"):
                    continue
                s = per.setdefault(rd["k"], [0, 0, 0, 0])
                s[0] += 1; s[1] += t["prompt"]; s[2] += t["prompt"] - (t.get("cached") or 0); s[3] += t.get("completion") or 0
    for k, (req, sent, comp, reply) in sorted(per.items()):
        single = base[2] if base else 0
        print(f"| {m} | {k} | {req / n:.1f} | {sent / n:,.0f} | {comp / n:,.0f} | {comp / n / single:.2f} | {reply / n:,.0f} |" if single else
              f"| {m} | {k} | {req / n:.1f} | {sent / n:,.0f} | {comp / n:,.0f} | – | {reply / n:,.0f} |")
EOF
echo
echo "runs in $out/ (per method: results.jsonl, summary.json, the simulator's counters in METHOD.stats.json; simulator.log)"

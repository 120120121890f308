#!/usr/bin/env bash
# How well `gam reproduce --dry-run` and `--pilot 10` foresee a run (issue 23): on a held-out generated benchmark (a seed
# used nowhere else, default 90210) standing in as DREAM's MME file, the dream-table1 recipe's rows IO, LLM Debate and
# w/ DREAM run on the built-in model and on the model-server simulator (gam bench serve-sim). For each backend: the
# pilot's estimate of the full run's calls, prompt and completion tokens, the full run's actual figures, the ratio
# estimate / actual, and whether the actual figures fall inside the dry run's ranges. docs/reproduce.md quotes it.
# Usage: bench/reproduce-pilot.sh [QUESTIONS] [SEED]   (default 60 questions, seed 90210; about 6 minutes on 2 idle cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n="${1:-60}"; seed="${2:-90210}"
./gam --version >/dev/null # builds the launcher jar once
out="target/reproduce-pilot"; rm -rf "$out"; mkdir -p "$out/LMUData/M3MAD" # this script's own output: new each time
./gam bench generate --n "$n" --seed "$seed" --out "$out/LMUData/M3MAD/MME.json" > "$out/generate.log" 2>&1
port="${GAM_BENCH_PORT:-18289}"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "bench/reproduce-pilot.sh: port $port is in use (set GAM_BENCH_PORT)" >&2; exit 2; fi
./gam bench serve-sim --port "$port" --latency-ms 0 --slots 64 > "$out/simulator.log" 2>&1 &
sim=$!
trap 'kill "$sim" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.5; done

run() { # name, backend flags...
  local name="$1"; shift
  local common=(reproduce dream-table1 --benchmarks MME --methods "IO,LLM Debate,w/ DREAM" --data-dir "$out/LMUData" --out "$out/$name" "$@")
  echo "== $name: gam ${common[*]} --pilot 10, then the full run" >&2
  ./gam "${common[@]}" --pilot 10 > "$out/$name-pilot.log" 2>&1 || { echo "the $name pilot failed; see $out/$name-pilot.log" >&2; exit 1; }
  cp "$out/$name/plan.json" "$out/$name-pilot-plan.json"
  ./gam "${common[@]}" > "$out/$name-full.log" 2>&1 || { echo "the $name run failed; see $out/$name-full.log" >&2; exit 1; }
}
run local
run sim --backend openai --base-url "http://127.0.0.1:$port/v1" --model gam-sim

python3 - "$out" "$n" "$seed" <<'EOF'
import json, sys
out, n, seed = sys.argv[1], sys.argv[2], sys.argv[3]
print(f"held-out set: gam bench generate --n {n} --seed {seed} as M3MAD_MME; pilot: the first 10 questions")
print(f"{'backend':8} {'method':14} {'figure':18} {'pilot estimate':>15} {'actual':>12} {'est/actual':>10}  inside the dry run's range")
for name in ("local", "sim"):
    plan = json.load(open(f"{out}/{name}-pilot-plan.json"))
    table = json.load(open(f"{out}/{name}/paper-table.json"))
    est = {m["method"]: m for m in plan["runs"][0]["methods"]}
    for a in table["actuals"]:
        p = est[a["method"]]["pilot"]
        for key, pk in (("calls", "calls"), ("promptTokens", "promptTokens"), ("completionTokens", "completionTokens")):
            act = a[key]["actual"]
            rng = f'{a[key]["estimateLow"]:.0f}–{a[key]["estimateHigh"]:.0f}'
            print(f"{name:8} {a['method']:14} {key:18} {p[pk]:15.0f} {act:12d} {p[pk]/act:10.3f}  {'yes' if a[key]['inside'] else 'NO'} ({rng})")
EOF

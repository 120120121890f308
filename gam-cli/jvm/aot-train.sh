#!/usr/bin/env bash
# Makes the gam launcher's ahead-of-time cache (Java 25+, JEP 483/514/515): one training question, `gam ask --method gam`
# forced to two rounds (experts, critics, revisions: the HTTP client, the reply parser, the controller, the prompts)
# against the model-server simulator on this machine, recorded with -XX:AOTCacheOutput. Usage (the launcher calls it):
#   gam-cli/jvm/aot-train.sh JAVA JAR CACHE [JVM options of the runs that will use it]
set -euo pipefail
java_bin="$1"; jar="$2"; aot="$3"; shift 3
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "$(dirname "$aot")/aot-train.XXXXXX")"
sim=""
cleanup() { if [[ -n "$sim" ]]; then kill "$sim" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT
"$java_bin" -Djava.awt.headless=true -XX:+UseSerialGC -jar "$jar" bench serve-sim --port 0 --latency-ms 0 --slots 8 \
  --ceiling-seconds 0 >"$work/sim.log" 2>&1 &
sim=$!
url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^serving \(http:[^ :]*:[0-9]*\/v1\).*/\1/p' "$work/sim.log" | head -1)"
  [[ -n "$url" ]] && break
  kill -0 "$sim" 2>/dev/null || break
  sleep 0.1
done
if [[ -z "$url" ]]; then echo "aot-train: the simulator did not start:" >&2; cat "$work/sim.log" >&2; exit 1; fi
if ! "$java_bin" "$@" -XX:AOTCacheOutput="$work/gam.aot" -jar "$jar" ask --image "$root/examples/red-triangle.png" \
    --question "What colour is the triangle?" --option A=red --option B=green --option C=blue --method gam --backend openai \
    --model gam-sim --base-url "$url" --set gam.theta_u=0 --set gam.theta_c=0 --set gam.ablation.fixed_rounds=true \
    --set gam.max_rounds=2 >"$work/ask.log" 2>&1; then
  echo "aot-train: the training question failed:" >&2; cat "$work/ask.log" >&2; exit 1
fi
mv -f "$work/gam.aot" "$aot"

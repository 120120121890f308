#!/usr/bin/env bash
# The built-in model on the video family (docs/video.md, "The built-in model on video"): generates N video questions
# on SEED (varied rendering styles, the generator's difficulty mix), runs `gam eval --backend local` with METHODS and
# prints gam eval's table, then accuracy per kind of question (motion/direction, blink/count, order/first,
# order/last) and per difficulty for each method, from results.jsonl joined with the benchmark's rows.
# Usage: bench/video-model.sh SEED [N] [METHODS] [OUT]   (defaults: N 200, METHODS single, OUT a temporary directory;
# GAM="java -jar some/gam.jar" runs another build than ./gam)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seed="${1:?usage: bench/video-model.sh SEED [N] [METHODS] [OUT]}"
n="${2:-200}"
methods="${3:-single}"
out="${4:-$(mktemp -d)}"
gam=(${GAM:-"$root/gam"})
command -v jq >/dev/null || { echo "bench/video-model.sh: needs jq (apt-get install jq)" >&2; exit 2; }
mkdir -p "$out"
data="$out/video-$seed.jsonl"
echo "\$ gam bench generate --n $n --seed $seed --families video --out $data"
if [[ -s "$data" && "$(wc -l < "$data")" -eq "$n" ]]; then
  echo "(already there: $data)"
else
  "${gam[@]}" bench generate --n "$n" --seed "$seed" --families video --out "$data" >&2
fi
echo "\$ gam eval --data $data --backend local --methods $methods --out $out/run-${methods//,/-}"
"${gam[@]}" eval --data "$data" --backend local --methods "$methods" --out "$out/run-${methods//,/-}" 2>&1 | { grep -v ' pairs/s ' || true; }
echo
echo "per kind and difficulty (right/n):"
jq -r -s --slurpfile rows "$data" '
  ($rows | map({key: (.index | tostring), value: {kind: .kind, difficulty: .difficulty}}) | from_entries) as $k
  | map(. + {kind: ($k[.questionId].kind), difficulty: ($k[.questionId].difficulty)})
  | group_by(.method)[]
  | . as $m
  | ([ "direction", "blinks", "first", "last" ] | map(. as $kd | ($m | map(select(.kind == $kd))) | "\($kd) \(map(select(.outcome == "correct")) | length)/\(length) (\(if length > 0 then ((map(select(.outcome == "correct")) | length) * 1000 / length | round / 10) else 0 end)%)") | join("  ")) as $kinds
  | ([ "easy", "medium", "hard" ] | map(. as $d | ($m | map(select(.difficulty == $d))) | "\($d) \(map(select(.outcome == "correct")) | length)/\(length)") | join("  ")) as $tiers
  | "\($m[0].method | . + "            " | .[0:12]) \($kinds)  |  \($tiers)"' "$out/run-${methods//,/-}/results.jsonl"

#!/usr/bin/env bash
# Issue 30's check: a benchmark whose rows name an mp4 (H.264), a webm (VP9), an animated gif and a frame folder
# evaluates with every method on the built-in model with 0 errors. Draws N (default 4) video questions
# (`gam bench generate --families video`), turns the first three frame folders into mp4, webm and gif with ffmpeg,
# and runs `gam eval` with every method; prints the table and exits 1 when any answer is an error.
# Usage: bench/video-formats.sh [SEED] [OUT]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seed="${1:-5151}"; out="${2:-$root/target/video-formats}"
command -v ffmpeg >/dev/null || { echo "bench/video-formats.sh: needs ffmpeg (apt-get install ffmpeg)" >&2; exit 2; }
rm -rf "$out"; mkdir -p "$out"
cd "$root"
./gam bench generate --n 4 --seed "$seed" --families video --out "$out/v.jsonl" >/dev/null
ffmpeg -v error -y -framerate 6 -i "$out/v_videos/0/frame-%02d.png" -c:v libx264 -pix_fmt yuv420p "$out/v0.mp4"
ffmpeg -v error -y -framerate 6 -i "$out/v_videos/1/frame-%02d.png" -c:v libvpx-vp9 "$out/v1.webm"
ffmpeg -v error -y -framerate 6 -i "$out/v_videos/2/frame-%02d.png" "$out/v2.gif"
# rows 0-2 name the files, row 3 keeps its frame folder
awk 'NR==1{sub(/"video":"v_videos\/0"/,"\"video\":\"v0.mp4\"")} NR==2{sub(/"video":"v_videos\/1"/,"\"video\":\"v1.webm\"")}
     NR==3{sub(/"video":"v_videos\/2"/,"\"video\":\"v2.gif\"")} {print}' "$out/v.jsonl" > "$out/mixed.jsonl"
methods="single,cot,sc,vote,debate,self-debate,mad,div-mad,dmad,chateval,debunc,dwi,gam,dream+debate,dream+gam,dream+mad"
./gam eval --data "$out/mixed.jsonl" --backend local --methods "$methods" --out "$out/run" > "$out/run.log" 2>&1
sed -n '/^method /,/^$/p' "$out/run.log"
errors="$(jq -s '[.[] | select(.outcome == "error" or .error != null)] | length' "$out/run/results.jsonl")"
answers="$(jq -s 'length' "$out/run/results.jsonl")"; expected=$(( 4 * $(tr ',' '\n' <<<"$methods" | wc -l) ))
echo "rows: mp4, webm, gif, frame folder; methods: $methods; answers: $answers of $expected; errors: $errors"
[[ "$errors" == 0 && "$answers" == "$expected" ]]

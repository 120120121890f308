#!/usr/bin/env bash
# Regenerates every screenshot the README shows (docs/img/*.png) from fresh runs, with headless Chromium at fixed
# window sizes, and writes docs/img/screenshots.json: what they were made from (the SHA-256 of every file under the
# paths bench/screenshot-sources.txt names, the ECharts version, the demo's figures; no timings, which vary) and what
# each shows (its section headings and chart titles). ScreenshotManifestTest fails when the sources or the README's
# demo table no longer match that manifest, or a README caption does not name what its picture shows: rerun this
# script then, and write the captions the test asks for.
#
#   bench/screenshots.sh [--out DIR]      (default: docs/img)
#
# What it runs (built-in model, offline): `gam demo`; a 12-question `gam` run recorded with gam.record_full=true;
# `gam report` over both; `gam serve` with gam.record_full=true and gam.zoom=true answering examples/red-triangle.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="docs/img"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    *) echo "usage: bench/screenshots.sh [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
work="$(mktemp -d)"
server=""
cleanup() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT

# the screenshot driver (headless Chromium over the DevTools protocol, as the browser tests drive it) and the gam jar
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-server -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="gam-server/target/test-classes:gam-server/target/classes:$(cat gam-server/target/test-classpath.txt)"

# shot URL FILE WIDTH HEIGHT READY [SCROLL]: the window at a fixed size once the JavaScript condition READY holds
# (what the window shows, its headings and chart titles, goes to $work/NAME.shows.json for the manifest)
shot() {
  java -Djava.awt.headless=true -Dgam.shot.shows="$work/$(basename "$2" .png).shows.json" -cp "$cp" dev.gamagent.server.PageShot "$@" >&2
  [ -s "$2" ] || { echo "screenshots: no $2 was written" >&2; exit 1; }
  echo "  $2 (${3}x$4)" >&2
}
charts="!!window.gamReport && !!echarts.getInstanceByDom(document.querySelector('#chart-cost'))"

echo "screenshots: gam demo ..." >&2
./gam demo --out "$work/demo" >"$work/demo.txt" 2>"$work/demo.err" || { cat "$work/demo.err" >&2; exit 1; }
echo "screenshots: a 12-question gam run with gam.record_full=true ..." >&2
./gam eval --data gam-bench/src/main/resources/bench/demo.tsv --methods gam --limit 12 --out "$work/full" \
  --set gam.record_full=true >"$work/full.txt" 2>"$work/full.err" || { cat "$work/full.err" >&2; exit 1; }
./gam report "$work/demo" "$work/full" --out "$work/comparison.html" >"$work/report.txt"

# the answer the trace-viewer picture opens: the first dream+gam question its debate turned from wrong to right,
# else the first one it debated
question="$(python3 - "$work/demo/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def flipped(r):
    for rnd in (r.get("trace") or {}).get("rounds") or []:
        if rnd.get("k") == 0:
            d = (rnd.get("extra") or {}).get("decision") or {}
            return d.get("option") not in (None, r.get("groundTruth")) and r.get("outcome") == "correct"
    return False
dream = [r for r in rows if r["method"] == "dream+gam"]
pick = next((r for r in dream if flipped(r)), None) or next((r for r in dream if r.get("rounds", 0) > 0), None) or dream[0]
print(pick["questionId"])
PY
)"

echo "screenshots: gam serve ..." >&2
./gam serve --port 0 --trace-db "$work/traces.db" --set gam.record_full=true --set gam.zoom=true >"$work/serve.txt" 2>"$work/serve.err" &
server=$!
url=""
for _ in $(seq 1 600); do
  url="$(sed -n 's/^gam serve: \(http[^ ]*\).*/\1/p' "$work/serve.txt" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.5
done
[ -n "$url" ] || { echo "screenshots: gam serve did not start" >&2; exit 1; }
python3 - "$url" examples/red-triangle.png >"$work/trace-id" <<'PY'
import base64, json, sys, urllib.request
url, image = sys.argv[1], sys.argv[2]
b64 = base64.b64encode(open(image, "rb").read()).decode()
body = {"model": "gam", "messages": [{"role": "user", "content": [
    {"type": "text", "text": "What colour is the triangle?\nA. red\nB. green\nC. blue"},
    {"type": "image_url", "image_url": {"url": "data:image/png;base64," + b64}}]}]}
req = urllib.request.Request(url + "v1/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req, timeout=600))["gam"]["trace_id"])
PY

echo "screenshots: taking them ..." >&2
shot "file://$work/demo/report.html" "$out/report-overview.png" 1280 3200 "$charts"
shot "file://$work/demo/report.html#sample=dream%2Bgam%7C$question" "$out/report-trace-viewer.png" 1280 1100 \
  "$charts && !!document.querySelector('#sample-trace .gv-chart svg')" "#answers"
shot "file://$work/comparison.html" "$out/comparison.png" 1280 2000 "$charts"
shot "${url}#trace=$(cat "$work/trace-id")" "$out/serve-trace-viewer.png" 1280 1500 \
  "document.querySelectorAll('#trace-body .gv-round').length > 0 && !!document.querySelector('#trace-body .gv-chart svg')"

python3 - "$work/demo/summary.json" "$out/screenshots.json" "$question" "$work" <<'PY'
import hashlib, json, os, re, sys
summary, manifest, question, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
# every file under the paths bench/screenshot-sources.txt names (ScreenshotManifestTest walks the same list)
sources = []
for line in open("bench/screenshot-sources.txt"):
    path = line.split("#", 1)[0].strip()
    if not path:
        continue
    if not os.path.exists(path):
        sys.exit("screenshots: bench/screenshot-sources.txt names " + path + ", which does not exist")
    if os.path.isfile(path):
        sources.append(path)
        continue
    for d, _, files in os.walk(path):
        sources += [os.path.join(d, f).replace(os.sep, "/") for f in files if f != "echarts.js"]
sources = sorted(set(sources))
echarts = re.search(r"<echarts.version>([^<]+)</echarts.version>", open("pom.xml").read()).group(1)
s = json.load(open(summary))
figures = {}
for name, m in s["metrics"].items():
    figures[name] = {"questions": m["groups"], "accuracy": round(m["accuracy"], 6) if m.get("accuracy") is not None else None,
                     "tokensPerQuestion": round(m["promptTokensPerQuestion"] + m["completionTokensPerQuestion"], 1),
                     "callsPerQuestion": round(m["callsPerQuestion"], 3), "meanRounds": round(m["meanRounds"], 3)}
doc = {
    "made_by": "bench/screenshots.sh",
    "images": {
        "report-overview.png": {"window": "1280x3200", "page": "gam demo: runs/demo/report.html"},
        "report-trace-viewer.png": {"window": "1280x1100", "page": "gam demo's report.html#sample=dream+gam|" + question},
        "comparison.png": {"window": "1280x2000", "page": "gam report over the demo and a 12-question gam run with gam.record_full=true"},
        "serve-trace-viewer.png": {"window": "1280x1500", "page": "gam serve (gam.record_full=true, gam.zoom=true): gam on examples/red-triangle.png"},
    },
    "sources": {f: hashlib.sha256(open(f, "rb").read()).hexdigest() for f in sources},
    "echarts": echarts,
    "demo": figures,
}
# what each picture shows (PageShot: headings and chart titles in its window); the README's caption names each
for name, image in doc["images"].items():
    image["shows"] = json.load(open(os.path.join(work, name[:-len(".png")] + ".shows.json")))
json.dump(doc, open(manifest, "w"), indent=2, ensure_ascii=False)
open(manifest, "a").write("\n")
PY
echo "screenshots: wrote $out/*.png and $out/screenshots.json (the trace viewer shows dream+gam on question $question)" >&2
cat "$work/demo.txt"

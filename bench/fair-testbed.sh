#!/usr/bin/env bash
# The fair testbed measured (docs/local-model.md, "The fair testbed measured"; issue 24): on fresh generated sets
# (N questions per seed, half of them hard) and on the independent held-out renderer (HeldOutScenes, easy and hard
# tiers, hard fraction 0.5 as the main sets unless --heldout-hard says otherwise), every compared method with the
# built-in model, each run's table with McNemar's exact test on every pair (Holm), each method's accuracy per tier,
# and the low-level rates against their cited ranges (10 samples at 0.7 from `sc --set sc.samples=10`; the
# switches from the run's own `debate`). Prints Markdown for the docs on stdout; progress on stderr.
# With --roles (issue 39) each set also runs `single` once per GAM expert role (`--set single.role=R`, the persona
# baseline) and prints the personas against the plain call (BenchTables roles: accuracy, Δ with Newcombe's interval
# and McNemar's p, answers that differ, errors shared; two samples of the plain call from the `sc` run beside them);
# with --gam-scoring it also runs `gam` with `gam.scoring=all` (the paper's Φ_gen over every generated token) and
# prints GAM's trigger rate, rounds and terminations under both scorings (BenchTables methods); with --zoom it also runs
# `gam` with `gam.zoom=true` (the controller sends each critic a zoomed crop of every disputed claim's region) and
# prints it beside the default.
# Usage: bench/fair-testbed.sh [--n N] [--heldout SEED] [--heldout-n N] [--heldout-hard F] [--methods LIST] [--no-rates]
#                              [--roles] [--gam-scoring] [--zoom] [--reuse] SEED ...
#   --no-rates: leave out the `sc` run with 10 samples and the low-level rates (the methods' tables only)
#   --heldout-hard F: the held-out set's hard fraction (0–1; default 0.5); "legacy" writes the first measurements'
#   easy-only set (HeldOutScenes write without a fraction)
#   --reuse: a run already finished in target/fair-testbed/ (summary.json written) is read, not run again
#   (about 80 min a seed of 300 with 8 methods on the shared machine under load 16; seeds must be ones never used before)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n=300; heldout=""; heldout_n=120; heldout_hard=0.5; reuse=""; rates_too=1; roles=""; gam_scoring=""; zoom=""
role_names="scene ocr relational object attribute"
methods="single,sc,vote,debate,mad,dmad,chateval,dwi,gam,dream+debate,dream+gam"
seeds=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --n) n="${2:?--n needs a number}"; shift 2 ;;
    --heldout) heldout="${2:?--heldout needs a seed}"; shift 2 ;;
    --heldout-n) heldout_n="${2:?--heldout-n needs a number}"; shift 2 ;;
    --heldout-hard) heldout_hard="${2:?--heldout-hard needs a fraction (0-1) or legacy}"; shift 2 ;;
    --methods) methods="${2:?--methods needs a list}"; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --no-rates) rates_too=""; shift ;;
    --roles) roles=1; shift ;;
    --gam-scoring) gam_scoring=1; shift ;;
    --zoom) zoom=1; shift ;;
    -*) echo "bench/fair-testbed.sh: unknown option $1" >&2; exit 2 ;;
    *) seeds+=("$1"); shift ;;
  esac
done
[[ ${#seeds[@]} -gt 0 || -n "$heldout" ]] || { echo "usage: bench/fair-testbed.sh [--n N] [--heldout SEED] [--heldout-n N] [--heldout-hard F] [--methods LIST] SEED ..." >&2; exit 2; }
if [[ "$heldout_hard" != legacy ]] && ! awk -v f="$heldout_hard" 'BEGIN { exit !(f ~ /^[0-9]*\.?[0-9]+$/ && f + 0 <= 1) }'; then
  echo "bench/fair-testbed.sh: --heldout-hard $heldout_hard is not a fraction between 0 and 1 (or legacy)" >&2; exit 2
fi
command -v jq >/dev/null || { echo "bench/fair-testbed.sh: needs jq (to find DREAM's rescues in the traces)" >&2; exit 2; }

./gam --version >/dev/null # builds the launcher jar once
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-local,gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp_local="gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)"
cp_eval="gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)"
java_bin="${GAM_JAVA:-java}"
out="target/fair-testbed"; mkdir -p "$out"
rates=()

# one extra run of a set: METHOD with one setting into DIR/SUB (read again, not rerun, with --reuse once finished)
one_run() { # label data.tsv dir sub method setting
  local label="$1" data="$2" dir="$3" sub="$4" method="$5" setting="$6"
  if [[ -n "$reuse" && -f "$dir/$sub/summary.json" ]]; then
    echo "== $label: reusing the finished run in $dir/$sub" >&2
  else
    echo "== $label: gam eval --methods $method --set $setting" >&2
    ./gam eval --data "$data" --methods "$method" --set "$setting" --out "$dir/$sub" > "$dir/$sub.log" 2>&1 \
      || { echo "bench/fair-testbed.sh: the $label $setting run failed; see $dir/$sub.log" >&2; exit 1; }
  fi
}

# `gam`'s rows of BenchTables methods over LABEL=DIR runs: accuracy, debates, rounds, terminations, tokens
gam_rows() { "$java_bin" -cp "$cp_eval" dev.gamagent.eval.BenchTables methods "$@" | awk -F'|' 'NR <= 2 || $3 ~ /`gam`/'; }

# one data file: every method (defaults), then sc with 10 samples for the sample-disagreement rate
measure() { # label data.tsv command-to-show
  local label="$1" data="$2" how="$3" dir="$out/$1"
  if [[ -n "$reuse" && -f "$dir/all/summary.json" ]]; then
    echo "== $label: reusing the finished run in $dir/all" >&2
  else
    echo "== $label: gam eval --methods $methods" >&2
    ./gam eval --data "$data" --methods "$methods" --out "$dir/all" > "$dir/all.log" 2>&1 \
      || { echo "bench/fair-testbed.sh: the $label run failed; see $dir/all.log" >&2; exit 1; }
  fi
  if [[ -z "$rates_too" ]]; then
    :
  elif [[ -n "$reuse" && -f "$dir/sc10/summary.json" ]]; then
    echo "== $label: reusing the finished run in $dir/sc10" >&2
  else
    echo "== $label: gam eval --methods sc --set sc.samples=10" >&2
    ./gam eval --data "$data" --methods sc --set sc.samples=10 --out "$dir/sc10" > "$dir/sc10.log" 2>&1 \
      || { echo "bench/fair-testbed.sh: the $label sc run failed; see $dir/sc10.log" >&2; exit 1; }
  fi
  if [[ -n "$rates_too" ]]; then
    mkdir -p "$out/rates/$label" # named by the run: TestbedRates labels each row with its directory's name
    { grep '"method":"debate"' "$dir/all/results.jsonl" || true; cat "$dir/sc10/results.jsonl"; } > "$out/rates/$label/results.jsonl"
    rates+=("$out/rates/$label")
  fi
  echo "### $label"
  echo
  echo "\`$how\`, then \`./gam eval --data data.tsv --methods $methods\` (defaults):"
  echo
  echo '```'
  sed -n '/^method /,/^Δ acc in points/p' "$dir/all.log"
  echo '```'
  echo
  # the pattern in one line: every pair significant after Holm, the more accurate method first
  echo "significant pairs (Holm p < 0.05), the more accurate first: $(jq -r '[.statistics.pairs[] | select(.significant)
      | if .difference > 0 then "\(.method) > \(.versus)" else "\(.versus) > \(.method)" end] | if length == 0 then "none" else join(", ") end' "$dir/all/summary.json")"
  echo
  # each method's accuracy per tier: the data file's difficulty column (13th) joined with the records by question id
  echo "accuracy per tier (the data file's difficulty column):"
  echo
  echo '```'
  { cut -f1,13 "$data" | tail -n +2 | sed 's/^/T\t/'
    jq -r '"R\t\(.method)\t\(.questionId)\t\(.outcome)"' "$dir/all/results.jsonl"; } | awk -F'\t' '
    $1 == "T" { tier[$2] = $3; tiers[$3] = 1; next }
    { t = tier[$3]; if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 }; n[$2, t]++; if ($4 == "correct") ok[$2, t]++ }
    END {
      printf "%-14s", "method"; split("easy medium hard", all, " "); for (i = 1; i <= 3; i++) if (all[i] in tiers) names[++k] = all[i]
      for (i = 1; i <= k; i++) printf " %16s", names[i]; printf "\n"
      for (j = 1; j <= m; j++) { printf "%-14s", order[j]
        for (i = 1; i <= k; i++) { c = n[order[j], names[i]] + 0
          if (c) printf " %6.1f%% (%3d/%3d)", 100 * ok[order[j], names[i]] / c, ok[order[j], names[i]], c; else printf " %16s", "-" }
        printf "\n" } }'
  echo '```'
  echo
  # DREAM's rescues: dream+debate right, the inner debate's own answer wrong, and a rollback that restored an
  # agent's earlier answer (the count; the first one's question is shown with its rounds)
  local rescues
  rescues=$(jq -c 'select(.method=="dream+debate" and .outcome=="correct" and (.trace.extra.inner_final.option // "") != .predicted
      and ((.trace.extra.rollbacks // []) | length) > 0) | .questionId' "$dir/all/results.jsonl" | wc -l)
  echo "dream+debate answers that a rollback turned right where the inner debate's own answer was wrong: $rescues"
  echo
  if [[ -n "$roles" ]]; then
    local role_args=("plain=$dir/all")
    for r in $role_names; do
      one_run "$label" "$data" "$dir" "role-$r" single "single.role=$r"
      role_args+=("$r=$dir/role-$r")
    done
    [[ -z "$rates_too" ]] || role_args+=("samples=$dir/sc10")
    echo "personas against the plain call (\`single\` with \`--set single.role=R\`; BenchTables roles):"
    echo
    "$java_bin" -cp "$cp_eval" dev.gamagent.eval.BenchTables roles "${role_args[@]}"
    echo
  fi
  if [[ -n "$gam_scoring" ]]; then
    one_run "$label" "$data" "$dir" gam-all gam gam.scoring=all
    echo "GAM's debate under content scoring (the default) and all-token scoring (\`gam.scoring=all\`; BenchTables methods):"
    echo
    gam_rows "content=$dir/all" "all=$dir/gam-all"
    echo
    # the trigger rule at the paper's thresholds too (θ_U 0.35, θ_C 0.45: GAM-Agent's 82 % trigger rate), from each
    # question's round 0 (U_sys and C as recorded in the trace; the rule is U_sys > θ_U or C > θ_C)
    echo "GAM's round 0 against the trigger rule (U_sys > θ_U or C > θ_C) at the defaults (0.5, 0.6) and at the paper's thresholds (0.35, 0.45):"
    echo
    echo "| scoring | n | mean U_sys | mean C | triggered at 0.5/0.6 | triggered at 0.35/0.45 | U_sys > 0.35 | C > 0.45 |"
    echo "|---|---|---|---|---|---|---|---|"
    for sc in content:all all:gam-all; do
      jq -rs --arg s "${sc%%:*}" '[.[] | select(.method == "gam" and (.trace.rounds | length) > 0) | .trace.rounds[0]] as $r | ($r | length) as $n
        | def pct(f): "\([$r[] | select(f)] | length) (\((100 * ([$r[] | select(f)] | length) / $n * 10 | round) / 10) %)";
          "| \($s) | \($n) | \(([$r[].U_sys] | add / $n * 1000 | round) / 1000) | \(([$r[].conflict] | add / $n * 1000 | round) / 1000)"
          + " | \(pct(.U_sys > 0.5 or .conflict > 0.6)) | \(pct(.U_sys > 0.35 or .conflict > 0.45)) | \(pct(.U_sys > 0.35)) | \(pct(.conflict > 0.45)) |"' \
        "$dir/${sc#*:}/results.jsonl"
    done
    echo
  fi
  if [[ -n "$zoom" ]]; then
    one_run "$label" "$data" "$dir" gam-zoom gam gam.zoom=true
    echo "GAM with the controller's zoomed crops (\`gam.zoom=true\`) beside the default (off; BenchTables methods):"
    echo
    gam_rows "$label, zoom off=$dir/all" "$label, zoom on=$dir/gam-zoom"
    echo
  fi
}

for s in "${seeds[@]}"; do
  mkdir -p "$out/seed$s"
  [[ -n "$reuse" && -f "$out/seed$s/data.tsv" ]] || ./gam bench generate --n "$n" --seed "$s" --hard-fraction 0.5 --out "$out/seed$s/data.tsv" > /dev/null
  measure "seed$s" "$out/seed$s/data.tsv" "./gam bench generate --n $n --seed $s --hard-fraction 0.5 --out data.tsv"
done
if [[ -n "$heldout" ]]; then
  mkdir -p "$out/heldout$heldout"
  hard_arg=(); what="easy items only, the first measurements' set"
  [[ "$heldout_hard" == legacy ]] || { hard_arg=("$heldout_hard"); what="easy and hard tiers, hard fraction $heldout_hard"; }
  [[ -n "$reuse" && -f "$out/heldout$heldout/data.tsv" ]] || "$java_bin" -Djava.awt.headless=true -cp "$cp_local" \
    dev.gamagent.local.HeldOutScenes write "$heldout_n" "$heldout" "$out/heldout$heldout/data.tsv" "${hard_arg[@]}"
  measure "heldout$heldout" "$out/heldout$heldout/data.tsv" \
    "java -cp gam-local/target/test-classes:... dev.gamagent.local.HeldOutScenes write $heldout_n $heldout data.tsv ${hard_arg[*]} (the held-out renderer, $what)"
fi
if [[ -n "$rates_too" ]]; then
  echo "### Low-level rates (\`sc\` with 10 samples at 0.7; the switches from each run's \`debate\`)"
  echo
  "$java_bin" -cp "$cp_local" dev.gamagent.local.TestbedRates --debate debate --markdown "${rates[@]}"
  echo
fi
echo "runs in $out/ (results.jsonl, summary.json, report.html each)" >&2

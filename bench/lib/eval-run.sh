# Sourced by bench/*.sh: one `gam eval` run per configuration, shared between scripts when bench/doc-tables.sh runs them.
#
#   bench_eval TAG DIR LOG DATA METHODS [gam eval flags...]
#
# runs `./gam eval --data DATA --methods METHODS --out DIR FLAGS` and writes its output to LOG. TAG names the model behind
# the flags (`local` for the built-in model; `sim-qwen`, `server-logprobs`, ... for a server whose address is in the
# flags), because a server's port says nothing about what it serves.
#
# Alone, each script starts its runs afresh (DIR is removed first). With GAM_BENCH_RUNS set (bench/doc-tables.sh sets it
# to a directory it empties at its start) DIR becomes a link to GAM_BENCH_RUNS/<configuration>, the configuration being
# TAG, the data file and every flag but --base-url; `gam eval` resumes there, so a method that an earlier script already
# ran in the same configuration is not run again, and only the methods asked for are in summary.json afterwards
# (results.jsonl keeps every method: tables read from it name their methods, BenchTables --methods=...).
bench_eval() {
  local tag="$1" dir="$2" log="$3" data="$4" methods="$5"; shift 5
  if [[ -n "${GAM_BENCH_RUNS:-}" ]]; then
    local key="$tag $data" skip=0 a
    for a in "$@"; do
      if [[ $skip -eq 1 ]]; then skip=0; continue; fi
      if [[ "$a" == --base-url ]]; then skip=1; continue; fi
      key+=" $a"
    done
    local shared
    shared="$GAM_BENCH_RUNS/$(printf '%s' "$key" | sha256sum | cut -c1-16)"
    mkdir -p "$shared" "$(dirname "$dir")"
    printf '%s\n' "$key" > "$shared.key" # what the hashed name stands for
    rm -rf "$dir"
    ln -s "$(cd "$shared" && pwd)" "$dir"
  else
    rm -rf "$dir" # this script's own output: a new run each time
  fi
  echo "== gam eval --data $data --methods $methods $* -> $dir" >&2
  ./gam eval --data "$data" --methods "$methods" --out "$dir" "$@" > "$log" 2>&1 \
    || { echo "${0}: the run in $dir failed; see $log" >&2; exit 1; }
}

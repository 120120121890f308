#!/usr/bin/env bash
# Measures Φ_sem (the hedge-language uncertainty used without log-probs) on real models' result files:
# how often it fires, accuracy by uncertainty bucket, AUROC of (1 − U) for correctness.
# Arguments: folders of MathVista output_*.json or VLMEvalKit *.jsonl result files.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ $# -eq 0 ]; then
  echo "usage: bench/hedge.sh FOLDER... (e.g. /work/shared/realdata/mathvista-testmini-8-models /work/shared/realdata/vlmevalkit-vila1.5)" >&2
  exit 2
fi
mvn -B -q test-compile >&2
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
mvn -B -q dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >&2
java -cp "target/test-classes:target/classes:$(cat "$cp_file")" dev.gamagent.uncertainty.HedgeMeasurement "$@"

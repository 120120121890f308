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
# the measurement is a test class of gam-eval; one Maven session builds it and what it needs, and writes its test classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
java -cp "gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)" dev.gamagent.uncertainty.HedgeMeasurement "$@"

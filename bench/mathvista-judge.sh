#!/usr/bin/env bash
# Replays real MathVista testmini replies through gam's grading and compares with MathVista's recorded verdicts:
# the judge path (VLMEvalKit's prompt; a scripted judge answers with the recorded extraction of each reply) and the
# rule-only fallback (VLMEvalKit's prefetch; gam's open-answer matcher). Figures in docs/metrics.md.
# Usage: bench/mathvista-judge.sh [FOLDER of output_<model>.json] (default /work/shared/realdata/mathvista-testmini-8-models)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
folder=${1:-/work/shared/realdata/mathvista-testmini-8-models}
[ -d "$folder" ] || { echo "error: $folder is not a folder of MathVista output_<model>.json files" >&2; exit 2; }
# the replay is a test class of gam-eval; one Maven session builds it and what it needs, and writes its test classpath
mvn -B -o -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-eval -am package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
java -cp "gam-eval/target/test-classes:gam-eval/target/classes:$(cat gam-eval/target/test-classpath.txt)" dev.gamagent.eval.grade.MathVistaReplay "$folder"

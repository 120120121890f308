#!/usr/bin/env bash
# The performance suite of issue 12 in one command: builds the jar, then measures every target against
# the model-server simulator (gam bench serve-sim) and the built-in model and prints each as a ratio
# with PASS/FAIL (exit 1 when any fails). Writes target/perf/report.md and the children's logs.
# About 15 minutes on an idle 2-core machine (the memory steps write 1.6 GB of benchmark files and 2 GB of junk into
# target/perf, kept for the next run). Arguments go to the suite: --only a,b runs some steps (ceiling, decision,
# round, throughput, inflight, gamcpu, concurrency, tokens, coldstart, perception, firstround, busy, fixedcost,
# junk, replycap, memory, generate; bench/report.sh runs after them unless --only is given); --big adds a 4 GB file, 10,000 questions and 20,000 generated items (hours).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# one Maven session: the launcher's jar, then each module's test classpath; the suite and its JMH benchmarks are gam-local's
# tests (they measure the built-in model and use gam-bench's generator, a test dependency of gam-local)
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
# the launcher's ahead-of-time cache for this jar (Java 25+; made once per build), which the children use as ./gam would
GAM_AOT=on ./gam --version >/dev/null   # the launcher's start-up cache (Java 25+), which the first-round step measures with and without
java -Xmx2g -Djava.awt.headless=true -cp "gam-local/target/test-classes:gam-local/target/classes:$(cat gam-local/target/test-classpath.txt)" \
  dev.gamagent.bench.perf.PerfSuite --jar gam-cli/target/gam.jar --out target/perf "$@" || status=$?
# issue 25's report targets (report.html written < 1 s after 300 questions on an idle machine, < 20 MB at 10,000),
# measured by bench/report.sh; skipped when --only picks steps
case " $* " in
  *" --only "*) ;;
  *) bench/report.sh 300 10000 || status=$? ;;
esac
exit "${status:-0}"

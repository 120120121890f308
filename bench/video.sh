#!/usr/bin/env bash
# What decoding a video costs (docs/video.md, "What decoding costs"): per container (mp4 H.264, webm VP9, avi
# MPEG-4), one full decode of a test clip by ffmpeg as the baseline, then 8 frames (decoded, then from the disk
# cache), 64 frames and one frame per second, each with its ratio to the baseline, and the bytes 8 frames hold.
# Usage: bench/video.sh [SECONDS]   (the clip's length, default 20)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v ffmpeg >/dev/null || { echo "bench/video.sh: needs ffmpeg (apt-get install ffmpeg)" >&2; exit 2; }
# gam-core's tests hold the benchmark; one Maven session builds them and writes their classpath
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl gam-core package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
java -Djava.awt.headless=true -cp "gam-core/target/test-classes:gam-core/target/classes:$(cat gam-core/target/test-classpath.txt)" \
  dev.gamagent.image.VideoDecodeBench "$@"

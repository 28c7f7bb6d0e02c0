#!/usr/bin/env bash
# One GPU session's evidence, in one call (see README "Development"): the profiler bench, the tests marked gpu,
# the evaluator bench, and `optiml check` twice on one example.
set -uo pipefail
source scripts/gpu-env.sh || exit 1
OUT=${OUT:-/tmp/optiml-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/device.txt"
timeout 300 python3 bench/profile_bench.py "$OUT" 2>&1 | tail -5
python3 -m pytest -q -m gpu tests/gpu 2>&1 | tail -25 | tee "$OUT/pytest-gpu.txt"
python3 bench/evaluator_bench.py "$OUT" 2>&1 | grep -v '^  File\|^Traceback\|moduleUnload\|check_status\|Exception ignored' \
  | tee "$OUT/evaluator-log.txt"
python3 -m optiml_engine.cli profile examples/layernorm_rows.cu 2>&1 | tee "$OUT/profile-cli.txt"
for i in 1 2; do python3 -m optiml_engine.cli check examples/layernorm_rows.cu --no-cache --json "$OUT/check$i.json" \
  2>&1 | tee "$OUT/check$i.txt"; done

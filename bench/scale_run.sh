#!/usr/bin/env bash
# Issue 19's evidence on a host with 2 or more GPUs, in one device call: whether two Nsight Compute processes on two
# GPUs run at once, the candidates/min bench (bench/scaling_bench.py), and `optiml optimize-all --cluster` on a local
# Ray cluster of one GPU worker per GPU. Everything lands in $OUT/scale.tar.gz; the tables are printed last.
set -uo pipefail
source scripts/gpu-env.sh || exit 1
OUT=${OUT:-/tmp/optiml-out}
results=/tmp/scale && rm -rf "$results" && mkdir -p "$results"
nvidia-smi --query-gpu=index,name,driver_version --format=csv | tee "$results/device.txt"
gpus=$(nvidia-smi -L | wc -l)

# Nsight Compute on two GPUs at once: if a lock serializes ncu processes, two take twice as long as one.
cat > /tmp/ncu_target.py <<'PY'
import sys, cupy
cupy.cuda.Device(int(sys.argv[1])).use()
x = cupy.ones(1 << 24, dtype=cupy.float32)
float((x * 2).sum())
PY
ncu=$(command -v ncu)
profile() { "$ncu" --clock-control none --metrics gpu__time_duration.sum python3 /tmp/ncu_target.py "$1" >/dev/null 2>&1; }
since() { awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $1 }"; }
began=$EPOCHREALTIME; profile 0; one=$(since "$began")
began=$EPOCHREALTIME; profile 0 & profile 1 & wait; two=$(since "$began")
echo "ncu: one process ${one} s; two at once on GPUs 0 and 1 ${two} s" | tee "$results/ncu-concurrency.txt"

timeout 420 python3 bench/scaling_bench.py "$results/scaling" ${SCALING_ARGS:-} 2>&1 | tail -40

# Ray 2.60 clusters use token authentication; a fresh machine has no token (~/.ray/auth_token) until one is made.
export RAY_USAGE_STATS_ENABLED=0 RAY_AUTH_MODE=token
ray get-auth-token --generate >/dev/null 2>&1
ray start --head --node-ip-address 127.0.0.1 --port 6390 --num-gpus "$gpus" --num-cpus 8 --temp-dir /tmp/ray \
  >"$results/ray-start.txt" 2>&1 || { tail -20 "$results/ray-start.txt"; }
timeout 240 python3 -m optiml_engine.cli optimize-all ${CLUSTER_KERNELS:-examples} --budget 16 --time 60 \
  --cluster 127.0.0.1:6390 --out "$results/cluster" 2>&1 | tee "$results/cluster.txt" | tail -25
ray status >"$results/ray-status.txt" 2>&1
ray stop --force >/dev/null 2>&1
tar -czf "$OUT/scale.tar.gz" -C /tmp scale
cat "$results/ncu-concurrency.txt" "$results/scaling/scaling.md" 2>/dev/null

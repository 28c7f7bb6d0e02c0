source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 560 python3 bench/ir_bench.py $OUT/h27a --seconds 120 --candidates 30 --set heldout27 > $OUT/h27a.log 2>&1
cd $OUT && tar czf run.tgz h27a *.log
grep -h "lifted=\|FAILED" h27a.log | tail -14 | cut -c1-220

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 550 python3 bench/ir_bench.py $OUT/h26a --seconds 120 --candidates 30 --set heldout26 > $OUT/h26a.log 2>&1
cd $OUT && tar czf run.tgz h26a *.log
grep -h "lifted=\|offered\|FAILED" h26a.log | tail -14 | cut -c1-220

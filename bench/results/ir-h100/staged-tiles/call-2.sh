source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 520 python3 bench/ir_bench.py $OUT/h25a --seconds 120 --candidates 30 --set heldout25 > $OUT/h25a.log 2>&1
cd $OUT && tar czf run.tgz h25a *.log
grep -h "lifted=\|offered" h25a.log | tail -14 | cut -c1-200

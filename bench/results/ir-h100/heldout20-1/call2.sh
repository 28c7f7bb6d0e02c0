source scripts/gpu-env.sh >/dev/null
run() { CUDA_VISIBLE_DEVICES=$1 timeout 190 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 --set heldout20 --only $2 > $OUT/h$1.log 2>&1; }
run 0 rope_neox_cache & run 1 mamba_selective_scan &
wait
cd $OUT && tar czf run.tgz h0 h1 *.log
grep -h "lifted=\|FAILED\|did not verify" h*.log | cut -c1-220

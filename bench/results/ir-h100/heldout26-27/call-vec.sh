source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 300 python3 bench/ir_bench.py $OUT/vec --seconds 120 --candidates 30 --set heldout27 --set heldout24 --set examples --only matmul_small_k matmul_at_bt conv_transpose2d_k2s2 sgemm_nt > $OUT/vec.log 2>&1
cd $OUT && tar czf run.tgz vec *.log
grep -h "lifted=\|FAILED" vec.log | tail -14 | cut -c1-220

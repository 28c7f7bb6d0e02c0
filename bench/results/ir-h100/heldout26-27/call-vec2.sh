source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 330 python3 bench/ir_bench.py $OUT/vec2 --seconds 120 --candidates 30 --set heldout27 --set heldout --set heldout23 --only conv3d_ncdhw conv_transpose2d_s2 bmm_naive sgemm_nn matmul_tn matmul_tiled16 > $OUT/vec2.log 2>&1
cd $OUT && tar czf run.tgz vec2 *.log
grep -h "lifted=\|FAILED" vec2.log | tail -14 | cut -c1-220

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
S="--seconds 120 --candidates 30 --set heldout23"
timeout 300 python3 bench/ir_bench.py $OUT/h23a $S --only cross_entropy_rows l2_normalize_interleaved layer_norm_rows mean_rows_serial > $OUT/h23a.log 2>&1
timeout 200 python3 bench/ir_bench.py $OUT/h23b $S --only softmax_rows_warp rms_norm_half argmax_rows amax_dim1 transpose_tiled matmul_tiled16 conv1d_halo histogram_u8 > $OUT/h23b.log 2>&1
cd $OUT && tar czf run.tgz h23a h23b *.log
grep -h "offered\|lifted=" h23a.log h23b.log | tail -20 | cut -c1-220
tail -20 h23a/ir.md 2>/dev/null | cut -c1-250

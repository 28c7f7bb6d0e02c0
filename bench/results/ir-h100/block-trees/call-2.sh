source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 500 python3 bench/ir_bench.py $OUT/h22a --seconds 120 --candidates 30 --set heldout22 --only channel_stats_nhwc_half frobenius_normalize l1_normalize_rows layer_norm_3d softmax_long_rows standardize_global > $OUT/h22a.log 2>&1
cd $OUT && tar czf run.tgz h22a *.log
tail -25 h22a.log | cut -c1-220

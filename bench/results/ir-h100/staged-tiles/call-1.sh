source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
timeout 170 python3 bench/ir_bench.py $OUT/h23c --seconds 120 --candidates 30 --set heldout23 --only matmul_tiled16 transpose_tiled histogram_u8 > $OUT/h23c.log 2>&1
timeout 385 python3 bench/ir_bench.py $OUT/h24a --seconds 120 --candidates 30 --set heldout24 --only kron diag_embed cross_product_f64 local_response_norm max_pool2d_with_indices grouped_conv2d_3x3 conv_transpose2d_k2s2 reflection_pad2d bce_mean_warp_atomic upsample_bicubic2x remainder_int median_blur3x3 > $OUT/h24a.log 2>&1
cd $OUT && tar czf run.tgz h23c h24a *.log
grep -h "lifted=\|offered" h23c.log h24a.log | tail -16 | cut -c1-200

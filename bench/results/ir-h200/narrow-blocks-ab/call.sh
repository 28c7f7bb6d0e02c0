source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
ab() { g=$1; shift
  ( cd scratch/before && CUDA_VISIBLE_DEVICES=$g timeout 150 python3 bench/schedule_probe.py $OUT/b$g "$@" > $OUT/b$g.log 2>&1 )
  CUDA_VISIBLE_DEVICES=$g timeout 150 python3 bench/schedule_probe.py $OUT/a$g "$@" > $OUT/a$g.log 2>&1; }
ab 0 tests/heldout20/permute_heads_bf16.cu tests/heldout17/pixel_shuffle_bf16.cu tests/heldout/avgpool2x2_nchw.cu tests/heldout20/rope_neox_cache.cu &
ab 1 tests/heldout10/depthwise_conv5x5.cu tests/heldout11/maxpool2d_k3s2p1.cu tests/heldout14/bias_relu_nhwc.cu tests/heldout17/lp_pool2d_half.cu &
ab 2 tests/heldout16/conv2d_3x3_s2_nchw.cu tests/heldout16/adaptive_avgpool2d_7x7.cu tests/heldout18/resize_bilinear.cu tests/heldout18/normalize_nhwc_u8.cu &
ab 3 tests/heldout10/stencil3d_7pt_f64.cu tests/heldout19/maxpool3d.cu tests/heldout18/avgpool3x3s2_nopad.cu tests/heldout10/embedding_gather.cu &
wait
(cd $OUT && tar czf run.tgz a0 a1 a2 a3 b0 b1 b2 b3 *.log)
for g in 0 1 2 3; do python3 scratch/ab_summary.py $OUT/b$g.log $OUT/a$g.log; done

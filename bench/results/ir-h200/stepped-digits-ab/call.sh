source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
ab() { g=$1; shift
  ( cd scratch/before && CUDA_VISIBLE_DEVICES=$g timeout 150 python3 bench/schedule_probe.py $OUT/b$g "$@" > $OUT/b$g.log 2>&1 )
  CUDA_VISIBLE_DEVICES=$g timeout 150 python3 bench/schedule_probe.py $OUT/a$g "$@" > $OUT/a$g.log 2>&1; }
ab 0 tests/heldout17/pixel_shuffle_bf16.cu tests/heldout/bias_gelu.cu tests/heldout10/embedding_gather.cu tests/heldout13/one_hot.cu &
ab 1 tests/heldout14/upsample_nearest2x_rows.cu tests/heldout19/maxpool3d.cu tests/heldout20/swiglu_backward.cu tests/heldout20/quant_rowwise_int8.cu &
ab 2 tests/heldout/sigmoid_gridstride.cu tests/heldout14/bias_relu_nhwc.cu tests/heldout11/gather_dim1.cu tests/heldout12/silu_linear_grid.cu &
ab 3 tests/heldout/swiglu_bf16.cu tests/heldout16/depthwise_conv3x3_nhwc_relu6.cu tests/heldout16/maxpool1d_dilated.cu tests/heldout19/softsign.cu &
wait
for g in 0 1 2 3; do python3 scratch/ab_summary.py $OUT/b$g.log $OUT/a$g.log; done

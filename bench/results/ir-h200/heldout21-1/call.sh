source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
SETS="--set heldout21"
run() { CUDA_VISIBLE_DEVICES=$1 timeout $2 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 $SETS --only ${@:3} > $OUT/h$1.log 2>&1; }
run 0 560 batch_norm_backward relu_inplace_half channel_shuffle mask_token_where gelu_backward_bf16 &
run 1 560 embedding_dense_backward sgd_step_bf16 constant_pad2d hardswish_backward &
run 2 560 max_pool2d_backward cross_entropy_backward upsample_nearest2x_nchw window_partition dequant_int8_per_channel &
run 3 560 smooth_l1_loss_backward repeat_kv roll_shift_windows causal_mask_fill_half &
wait
cd $OUT && tar czf run.tgz h0 h1 h2 h3 *.log
grep -h "lifted=\|FAILED\|did not verify" h*.log | cut -c1-220

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
SETS="--set examples --set heldout --set heldout13 --set heldout18 --set heldout19"
run() { CUDA_VISIBLE_DEVICES=$1 timeout $2 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 $SETS --only ${@:3} > $OUT/h$1.log 2>&1; }
run 0 560 bmm_naive cross_entropy_rows dot_atomic layernorm_rows new_gelu_bf16 col_sum bias_gelu_tanh &
run 1 560 sgemm_nn conv2d_3x3 logsumexp_chunked sum_middle_axis blur3x3 histogram64 sigmoid_gridstride &
run 2 560 conv1d_multi_out byte_histogram sumsq_double_atomic maxpool2x2 bn_stats sigmoid_focal_loss_rows col_absmax &
run 3 560 permute_abc_to_cab matvec_transposed count_above leaky_relu log_softmax_fwd mse_loss_atomic swiglu_bf16 &
wait
cd $OUT && tar czf run.tgz h0 h1 h2 h3 *.log
grep -h "lifted=\|FAILED" h*.log | cut -c1-200

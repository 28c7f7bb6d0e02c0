source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
S="--set heldout --set heldout19 --set heldout21"
run() { CUDA_VISIBLE_DEVICES=$1 timeout $2 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 $S --only ${@:3} > $OUT/h$1.log 2>&1; }
run 0 570 window_partition roll_shift_windows channel_shuffle batch_norm_backward &
run 1 570 upsample_nearest2x_nchw bias_gelu_tanh permute_abc_to_cab swiglu_bf16 batch_norm_train &
wait
cd $OUT && tar czf run.tgz h0 h1 *.log
grep -h "lifted=" h*.log | cut -c1-200

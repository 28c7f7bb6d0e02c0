source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
K="tests/heldout21/window_partition.cu tests/heldout21/roll_shift_windows.cu tests/heldout21/channel_shuffle.cu tests/heldout21/upsample_nearest2d_half.cu tests/heldout/bias_gelu.cu tests/heldout/permute_abc_cab.cu tests/heldout/swiglu_bf16.cu tests/heldout21/batchnorm_backward.cu tests/heldout19/batchnorm_train.cu"
(cd scratch/before && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=$PWD:/tmp/site timeout 570 python3 bench/schedule_probe.py $OUT/before $K > $OUT/before.log 2>&1) &
CUDA_VISIBLE_DEVICES=1 timeout 570 python3 bench/schedule_probe.py $OUT/after $K > $OUT/after.log 2>&1 &
wait
cd $OUT && tar czf run.tgz before after *.log
grep -h "^BEST\|best" before.log after.log | head -40

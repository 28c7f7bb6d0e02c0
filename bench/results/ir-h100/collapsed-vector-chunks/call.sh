source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
K="tests/heldout19/batchnorm_train.cu tests/heldout21/batchnorm_backward.cu tests/heldout15/conv2d_bias_grad_nchw.cu"
S="--set heldout15 --set heldout19 --set heldout21"
(cd scratch/before && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=$PWD:/tmp/site timeout 250 python3 bench/schedule_probe.py $OUT/before $K > $OUT/before.log 2>&1
 cd ../.. && CUDA_VISIBLE_DEVICES=0 timeout 250 python3 bench/ir_bench.py $OUT/h0 --seconds 120 --candidates 30 $S --only batch_norm_train conv2d_bias_grad > $OUT/h0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 250 python3 bench/schedule_probe.py $OUT/after $K > $OUT/after.log 2>&1
 CUDA_VISIBLE_DEVICES=1 timeout 250 python3 bench/ir_bench.py $OUT/h1 --seconds 120 --candidates 30 $S --only batch_norm_backward > $OUT/h1.log 2>&1) &
wait
cd $OUT && tar czf run.tgz before after h0 h1 *.log
grep -h "lifted=" h*.log | cut -c1-200

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
K="tests/heldout19/batchnorm_train.cu tests/heldout21/batchnorm_backward.cu tests/heldout19/instance_norm.cu tests/heldout10/group_norm.cu"
S="--set heldout10 --set heldout19 --set heldout21"
timeout 130 python3 bench/schedule_probe.py $OUT/after $K > $OUT/after.log 2>&1
(cd scratch/before && PYTHONPATH=$PWD:/tmp/site timeout 120 python3 bench/schedule_probe.py $OUT/before $K > $OUT/before.log 2>&1)
timeout 150 python3 bench/ir_bench.py $OUT/h0 --seconds 120 --candidates 30 $S --only batch_norm_train > $OUT/h0.log 2>&1
cd $OUT && tar czf run.tgz before after h0 *.log
grep -h "lifted=" h*.log | cut -c1-250
tail -3 before.log after.log

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
K="tests/heldout19/instance_norm.cu tests/heldout10/group_norm.cu"
timeout 70 python3 bench/schedule_probe.py $OUT/after $K > $OUT/after.log 2>&1
(cd scratch/before && PYTHONPATH=$PWD:/tmp/site timeout 65 python3 bench/schedule_probe.py $OUT/before $K > $OUT/before.log 2>&1)
cd $OUT && tar czf run.tgz before after *.log

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
FILES="tests/heldout20/concat_lastdim.cu tests/heldout15/adamw_step.cu tests/heldout11/sgd_momentum.cu tests/heldout12/normalize3d_soa_inplace.cu"
( ( cd scratch/before && CUDA_VISIBLE_DEVICES=0 timeout 125 python3 bench/schedule_probe.py $OUT/b0 $FILES > $OUT/b0.log 2>&1 )
  CUDA_VISIBLE_DEVICES=0 timeout 125 python3 bench/schedule_probe.py $OUT/a0 $FILES > $OUT/a0.log 2>&1 ) &
CUDA_VISIBLE_DEVICES=1 timeout 250 python3 bench/ir_bench.py $OUT/h1 --seconds 120 --candidates 30 --set heldout20 --set heldout15 --set heldout11 --set heldout12 --only concat_lastdim adamw_step sgd_momentum normalize3d_soa_inplace > $OUT/h1.log 2>&1 &
wait
(cd $OUT && tar czf run.tgz a0 b0 h1)
python3 scratch/ab_summary.py $OUT/b0.log $OUT/a0.log
grep -h "lifted=" $OUT/h*.log | cut -c1-200

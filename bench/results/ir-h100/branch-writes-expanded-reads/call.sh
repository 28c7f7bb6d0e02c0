source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
K="tests/heldout21/causal_mask_fill_half.cu tests/heldout21/upsample_nearest2d_half.cu tests/heldout14/upsample_nearest2x_rows.cu tests/heldout/heat1d_5pt.cu tests/heldout2/hardswish_pitched.cu"
S="--set heldout --set heldout2 --set heldout14 --set heldout21"
(cd scratch/before && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=$PWD:/tmp/site timeout 300 python3 bench/schedule_probe.py $OUT/before $K > $OUT/before.log 2>&1
 cd ../.. && CUDA_VISIBLE_DEVICES=0 timeout 280 python3 bench/ir_bench.py $OUT/h0 --seconds 120 --candidates 30 $S --only causal_mask_fill_half heat1d_5pt > $OUT/h0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 300 python3 bench/schedule_probe.py $OUT/after $K > $OUT/after.log 2>&1
 CUDA_VISIBLE_DEVICES=1 timeout 280 python3 bench/ir_bench.py $OUT/h1 --seconds 120 --candidates 30 $S --only upsample_nearest2x_nchw upsample_nearest2x hardswish_pitched > $OUT/h1.log 2>&1) &
wait
cd $OUT && tar czf run.tgz before after h0 h1 *.log
grep -h "lifted=" h*.log | cut -c1-200

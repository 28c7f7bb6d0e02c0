source scripts/gpu-env.sh >/dev/null
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/ab $OUT/grouped
timeout 140 python3 bench/ir_bench.py $OUT/grouped --seconds 30 --candidates 30 --set heldout17 --set heldout28 --only grouped_conv1d pos_conv_grouped_nlc > $OUT/grouped.log 2>&1
tail -12 $OUT/grouped.log
timeout 100 python3 bench/emit_ab.py $OUT/ab --old-engine scratch/gpu/old tests/heldout27/conv3d_ncdhw.cu examples/sgemm_nt.cu tests/heldout17/conv2d_nhwc_hwio.cu > $OUT/ab.log 2>&1
tail -20 $OUT/ab.log

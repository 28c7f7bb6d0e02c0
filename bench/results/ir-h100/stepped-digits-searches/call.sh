source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
ab() { g=$1; shift
  ( cd scratch/before && CUDA_VISIBLE_DEVICES=$g timeout 120 python3 bench/schedule_probe.py $OUT/b$g "$@" > $OUT/b$g.log 2>&1 )
  CUDA_VISIBLE_DEVICES=$g timeout 120 python3 bench/schedule_probe.py $OUT/a$g "$@" > $OUT/a$g.log 2>&1; }
b() { g=$1; shift; CUDA_VISIBLE_DEVICES=$g timeout 250 python3 bench/ir_bench.py $OUT/h$g --seconds 120 --candidates 30 "$@" > $OUT/h$g.log 2>&1; }
ab 0 tests/heldout20/swiglu_backward.cu tests/heldout20/quant_rowwise_int8.cu tests/heldout/sigmoid_gridstride.cu &
ab 1 tests/heldout12/silu_linear_grid.cu tests/heldout/swiglu_bf16.cu tests/heldout19/softsign.cu &
b 2 --set heldout17 --set heldout20 --only pixel_shuffle_bf16 permute_heads_bf16 top_p_cumprobs &
b 3 --set heldout --only sigmoid_gridstride bias_gelu cosine_sim_rows swiglu_bf16 &
wait
(cd $OUT && tar czf run.tgz a0 a1 b0 b1 h2 h3)
for g in 0 1; do python3 scratch/ab_summary.py $OUT/b$g.log $OUT/a$g.log; done
grep -h "lifted=" $OUT/h*.log | cut -c1-200

source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
b() { g=$1; t=$2; shift 2; CUDA_VISIBLE_DEVICES=$g timeout $t python3 bench/ir_bench.py $OUT/h$g --seconds 120 --candidates 30 "$@" > $OUT/h$g.log 2>&1; }
( CUDA_VISIBLE_DEVICES=0 timeout 120 python3 bench/schedule_probe.py $OUT/p0 tests/heldout20/top_p_cumprobs.cu tests/heldout20/permute_heads_bf16.cu > $OUT/p0.log 2>&1
  b 0 170 --set heldout20 --only top_p_cumprobs ) &
b 1 290 --set heldout20 --only permute_heads_bf16 swiglu_backward attn_pv_bshd concat_lastdim &
b 2 290 --set heldout --only permute_abc_to_cab avgpool2x2_nchw swiglu_bf16 &
b 3 290 --set heldout17 --set heldout10 --set heldout18 --only pixel_shuffle_bf16 embedding_gather resize_bilinear &
wait
(cd $OUT && tar czf run.tgz p0 h0 h1 h2 h3 *.log)
python3 scratch/probe_summary.py $OUT/p0.log
grep -h "lifted=" $OUT/h*.log | cut -c1-220

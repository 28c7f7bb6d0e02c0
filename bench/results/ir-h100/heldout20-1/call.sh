source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
SETS="--set heldout --set heldout20"
run() { CUDA_VISIBLE_DEVICES=$1 timeout $2 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 $SETS --only ${@:3} > $OUT/h$1.log 2>&1; }
run 0 500 row_cumsum mamba_selective_scan rope_neox_cache &
run 1 500 top_p_cumprobs moe_combine_scatter &
run 2 500 attn_pv_bshd permute_heads_bf16 rmsnorm_bf16 &
run 3 500 swiglu_backward token_logprobs &
wait
cd $OUT && tar czf run.tgz h0 h1 h2 h3 *.log
grep -h "lifted=\|FAILED\|did not verify" h*.log | cut -c1-220

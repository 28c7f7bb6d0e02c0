source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
p() { g=$1; shift; CUDA_VISIBLE_DEVICES=$g timeout 280 python3 bench/schedule_probe.py $OUT/p$g "$@" > $OUT/p$g.log 2>&1; }
p 0 tests/heldout20/permute_heads_bf16.cu tests/heldout/avgpool2x2_nchw.cu tests/heldout20/attn_pv_bshd.cu &
p 1 tests/heldout19/cumprod_dim1.cu tests/heldout19/batchnorm_train.cu &
p 2 tests/heldout19/conv_transpose1d.cu tests/heldout19/matmul_large_k.cu &
p 3 tests/heldout20/top_p_cumprobs.cu tests/heldout/count_above.cu tests/heldout/bmm.cu &
wait
(cd $OUT && tar czf run.tgz p0 p1 p2 p3 *.log)
python3 scratch/probe_summary.py $OUT/p*.log

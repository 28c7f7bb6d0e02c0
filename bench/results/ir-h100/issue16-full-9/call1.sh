source scripts/gpu-env.sh >/dev/null
nvidia-smi -L
SETS="--set examples --set heldout --set heldout15"
run() { CUDA_VISIBLE_DEVICES=$1 timeout $2 python3 bench/ir_bench.py $OUT/h$1 --seconds 120 --candidates 30 $SETS --only ${@:3} > $OUT/h$1.log 2>&1; }
run 0 540 sgemm_nt transpose_naive vector_add row_max residual_add_fp16 heat1d_5pt linear_matvec &
run 1 540 matmul_tn swap_last_two daxpby gemv_rowmajor relu_scale jacobi_sweep cosine_sim_rows &
run 2 540 pairwise_sqdist add_transposed softmax_rows row_l2norm clamp_add_int avgpool2x2_nchw layernorm_affine &
( cd scratch/before && CUDA_VISIBLE_DEVICES=3 timeout 200 python3 bench/schedule_probe.py $OUT/ab_before tests/heldout/row_cumsum.cu tests/heldout19/exclusive_cumsum.cu > $OUT/ab_before.log 2>&1
  cd ../.. && CUDA_VISIBLE_DEVICES=3 timeout 200 python3 bench/schedule_probe.py $OUT/ab_after tests/heldout/row_cumsum.cu tests/heldout19/exclusive_cumsum.cu > $OUT/ab_after.log 2>&1
  run 3 360 conv1d_valid maxpool1d_k3s2 rmsnorm_fwd row_mean_i64 ) &
wait
cd $OUT && tar czf run.tgz h0 h1 h2 h3 ab_before ab_after *.log
for f in ab_*.log; do echo "== $f"; grep -E "schedule scan|'naive'" $f | cut -c1-120; done
grep -h "lifted=" h*.log | cut -c1-200

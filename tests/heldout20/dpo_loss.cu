// loss[0] += (1/n) * sum over i of -logsigmoid(beta * ((pc[i] - pr[i]) - (rc[i] - rr[i]))): the sigmoid DPO loss over n preference pairs from the summed log-probabilities of the chosen and rejected completions under the policy and the frozen reference (TRL's DPOTrainer.dpo_loss, loss_type="sigmoid", label_smoothing 0); loss must start at 0; a grid-stride loop over at most 256 blocks of 256, a device helper for -logsigmoid in the stable softplus form, one atomicAdd per thread.
__device__ __forceinline__ float neg_log_sigmoid(float z)
{
    // -log(sigmoid(z)) = softplus(-z) = max(-z, 0) + log1p(exp(-|z|))
    return fmaxf(-z, 0.0f) + log1pf(expf(-fabsf(z)));
}

/* @optiml
   sizes:           n=16777216          # 2^24 floats each: 4 x 64 MiB in
   check:           n=1; n=7; n=1000; n=4099; n=65537; n=600001; n=2
   policy_chosen:   in    float[n] normal(-150,20)
   policy_rejected: in    float[n] normal(-150,20)
   ref_chosen:      in    float[n] normal(-150,20)
   ref_rejected:    in    float[n] normal(-150,20)
   loss:            inout float[1] const(0)   # accumulator: zeroed before each run
   beta:            0.1
   launch:          grid=min(cdiv(n,256),256) block=256
   flops:           12*n
   tol:             1e-4
*/
__global__ void dpo_sigmoid_loss(const float* policy_chosen, const float* policy_rejected, const float* ref_chosen,
                                 const float* ref_rejected, float* loss, float beta, int n)
{
    float local = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float pi_logratio = policy_chosen[i] - policy_rejected[i];
        float ref_logratio = ref_chosen[i] - ref_rejected[i];
        local += neg_log_sigmoid(beta * (pi_logratio - ref_logratio));
    }
    atomicAdd(loss, local / n);
}

// with d = pred - target: dpred = (|d| < beta ? d / beta : sign(d)) / n over the n = 4 * boxes coordinates: the gradient of the box-regression loss F.smooth_l1_loss(pred, target, beta=1/9, reduction="mean") of Faster R-CNN / Detectron (ATen's smooth_l1_loss_backward with a unit incoming gradient); an int grid-stride loop over at most 2048 blocks of 256, a device helper with two ternaries.
__device__ __forceinline__ float smooth_l1_grad(float d, float beta)
{
    return d <= -beta ? -1.0f : (d >= beta ? 1.0f : d / beta);
}

/* @optiml
   sizes:  boxes=4194304                # 2^24 coordinates: pred 64 MiB, target 64 MiB in, dpred 64 MiB out
   check:  boxes=1; boxes=7; boxes=1000; boxes=4099; boxes=65537; boxes=2
   pred:   in  float[boxes*4] normal(0,0.2)
   target: in  float[boxes*4] normal(0,0.2)
   dpred:  out float[boxes*4]
   beta:   0.11111111
   launch: grid=min(cdiv(boxes*4,256),2048) block=256
   flops:  4*boxes*4
*/
__global__ void smooth_l1_loss_backward(const float* pred, const float* target, float* dpred, float beta, int boxes)
{
    int n = boxes * 4;
    float norm = 1.0f / n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float d = pred[i] - target[i];
        dpred[i] = smooth_l1_grad(d, beta) * norm;
    }
}

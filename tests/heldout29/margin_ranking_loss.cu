// loss = (1 / n) sum_i max(0, -y_i (x1_i - x2_i) + 0.5), y_i = 2 label_i - 1 in {-1, +1}: `F.margin_ranking_loss(x1, x2, y, margin=0.5)` (mean reduction; KernelBench level 1's loss family) over 16M scored pairs of a ranking model, fp32 scores, int32 labels in {0, 1}; an `int` grid-stride loop capped at 1024 blocks of 256, one running partial per thread, `#define MARGIN`, one atomicAdd of partial / n per thread into a zero-initialised scalar.
#define MARGIN 0.5f

/* @optiml
   sizes:   n=16777216   # x1, x2 64 MiB in each, label 64 MiB in; 84 MFLOP
   check:   n=1; n=2; n=7; n=255; n=257; n=1000; n=262145; n=300001
   x1:      in  float[n]
   x2:      in  float[n]
   label:   in  int[n] range(0,2)
   loss:    inout float[1] const(0)
   launch:  grid=min(cdiv(n,256),1024) block=256
   flops:   5*n
   tol:     1e-4
*/
__global__ void margin_ranking_loss(const float* x1, const float* x2, const int* label, float* loss, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    float partial = 0.0f;
    for (int i = tid; i < n; i += stride) {
        float y = label[i] ? 1.0f : -1.0f;
        float v = -y * (x1[i] - x2[i]) + MARGIN;
        partial += v > 0.0f ? v : 0.0f;
    }
    atomicAdd(loss, partial / n);
}

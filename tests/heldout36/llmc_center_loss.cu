// losses[n] = 0.5 * sum_c (x[n][c] - centers[labels[n]][c])^2: the per-sample terms of the center loss of Wen et al. (ECCV 2016, `0.5 * ((x - centers[labels]) ** 2).sum(1)`, the mean over the batch taken on the host) for 32768 512-d face embeddings against the 10575 class centers of CASIA-WebFace, with int64 labels; written as llm.c writes its reference kernels (`crossentropy_forward_kernel1`): output pointer first, shape comments at the top, "every thread handles one" sample with `int n = blockIdx.x * blockDim.x + threadIdx.x; if (n < N) { ... }`, pointer offsets `const float* x_n = x + n * C;` and `const float* c_ix = centers + ix * C;`, `float sum = 0.0f;` and a plain `for (int i = 0; i < C; i++)` loop, 128-thread blocks.
#include <cstdint>

/* @optiml
   sizes:   N=32768 C=512 num_classes=10575   # x 64 MiB in, centers 20.65 MiB in (rows gathered by label), labels 256 KiB in, losses 128 KiB out; 50 MFLOP
   check:   N=1 C=1; N=3 C=7; N=129 C=33; N=300 C=5; N=1000 C=64; N=17 C=512 num_classes=12000
   losses:  out float[N]
   x:       in  float[N*C]
   centers: in  float[num_classes*C]
   labels:  in  int64_t[N] range(0,10575)
   launch:  grid=cdiv(N,128) block=128
   flops:   3*N*C
   tol:     1e-5
*/
__global__ void center_loss_forward_kernel1(float* losses, const float* x, const float* centers,
                                            const int64_t* labels, int N, int C) {
    // losses is (N,), x is (N,C) features, centers is (num_classes,C), labels is (N,) of class indices
    // in the naive kernel, every thread handles one sample
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < N) {
        const float* x_n = x + n * C;
        int64_t ix = labels[n];
        const float* c_ix = centers + ix * C;
        float sum = 0.0f;
        for (int i = 0; i < C; i++) {
            float diff = x_n[i] - c_ix[i];
            sum += diff * diff;
        }
        losses[n] = 0.5f * sum;
    }
}

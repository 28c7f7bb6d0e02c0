// conf[r] = max_c softmax(logits[r])[c] = 1 / sum_c exp(logits[r, c] - max), pred[r] = argmax_c logits[r, c] (first index of the maximum): the maximum softmax probability and its class (`conf, pred = torch.max(F.softmax(logits, dim=1), dim=1)`), the confidence of Hendrycks & Gimpel's MSP out-of-distribution baseline and of calibration / pseudo-labelling code, 65536 ImageNet-1k predictions (1000 classes), fp32 logits, int64 classes; one block of 256 threads a row, each thread keeping an online (max, sum of exp, argmax) triple over its strided columns, the triples merged by a `__shared__` tree over three arrays (max, sum, index; ties to the lower index), thread 0 writing both outputs; `#define BLOCK`, `size_t` row offset, `__restrict__`; logits `normal(0,3)`.

#include <cstdint>

#define BLOCK 256

/* @optiml
   sizes:  rows=65536 classes=1000   # logits 250 MiB in, conf 256 KiB and pred 512 KiB out; 0.26 GFLOP
   check:  rows=1 classes=1; rows=3 classes=2; rows=4 classes=255; rows=2 classes=1000; rows=5 classes=257; rows=9 classes=31; rows=2 classes=4100; rows=3 classes=513
   logits: in  float[rows*classes] normal(0,3)
   conf:   out float[rows]
   pred:   out int64_t[rows]
   launch: grid=rows block=256
   flops:  4*rows*classes
   tol:    1e-5
*/
__global__ void softmax_confidence(const float* __restrict__ logits, float* __restrict__ conf,
                                   int64_t* __restrict__ pred, int rows, int classes)
{
    __shared__ float s_max[BLOCK];
    __shared__ float s_sum[BLOCK];
    __shared__ int s_idx[BLOCK];

    const int tid = threadIdx.x;
    const float* row = logits + (size_t)blockIdx.x * classes;

    float m = -INFINITY;      // running max
    float s = 0.0f;           // sum of exp(v - m)
    int idx = classes;        // where the max is (none yet)
    for (int c = tid; c < classes; c += BLOCK) {
        float v = row[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
            idx = c;
        } else {
            s += expf(v - m);
        }
    }
    s_max[tid] = m;
    s_sum[tid] = s;
    s_idx[tid] = idx;
    __syncthreads();

    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            float m1 = s_max[tid], m2 = s_max[tid + stride];
            float s1 = s_sum[tid], s2 = s_sum[tid + stride];
            int i1 = s_idx[tid], i2 = s_idx[tid + stride];
            float mm = fmaxf(m1, m2);
            if (mm != -INFINITY)
                s_sum[tid] = s1 * expf(m1 - mm) + s2 * expf(m2 - mm);
            s_max[tid] = mm;
            s_idx[tid] = (m2 > m1 || (m2 == m1 && i2 < i1)) ? i2 : i1;
        }
        __syncthreads();
    }

    if (tid == 0) {
        conf[blockIdx.x] = 1.0f / s_sum[0];
        pred[blockIdx.x] = s_idx[0];
    }
}

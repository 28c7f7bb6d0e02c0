// correct[0] += number of rows n with argmax over c of logits[n][c] == labels[n] (the first index among equal maxima, as torch.argmax): the top-1 accuracy count of an N x C fp16 logit matrix against int64 labels (a CIFAR-10 style evaluation, C = 10); one thread per row, an int atomic per correct row.
#include <cstdint>
#include <cuda_fp16.h>

/* @optiml
   sizes:   N=4194304 C=10              # 2^22 rows: 80 MiB of fp16 logits, 32 MiB of int64 labels
   check:   N=1 C=10; N=7 C=10; N=100 C=11; N=513 C=33; N=3 C=1000; N=1000 C=10
   logits:  in    half[N*C]
   labels:  in    int64_t[N] range(0,10)   # every size has C >= 10
   correct: inout int[1] const(0)          # accumulator: zeroed before each run
   launch:  grid=cdiv(N,256) block=256
   flops:   N*C
*/
extern "C" __global__ void top1_correct(const __half* logits, const int64_t* labels, int* correct, int N, int C)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= N)
        return;

    const __half* row = logits + (size_t)n * C;
    float best = __half2float(row[0]);
    int64_t arg = 0;
    for (int c = 1; c < C; c++) {
        float v = __half2float(row[c]);
        if (v > best) {          // strict: ties keep the first index
            best = v;
            arg = c;
        }
    }
    if (arg == labels[n])
        atomicAdd(correct, 1);
}

// c = leaky_relu(a @ b) with leaky_relu(v) = v >= 0 ? v : 0.01 v, a M x K and b K x N in fp16, the products accumulated in fp32 and c rounded to fp16: Triton's matmul tutorial (03-matrix-multiplication, `matmul(a, b, activation="leaky_relu")`) at M = N = 4096, K = 2048; a hand translation of its `matmul_kernel`: the tutorial's signature (pointers, `M, N, K`, the six `stride_*` arguments), its `tl.constexpr` meta-parameters as a `template <int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M, int ACTIVATION>` (16, 16, 32, 8, leaky ReLU), its grouped ordering of the 1-D program id (`pid`, `num_pid_m`, `num_pid_in_group`, `group_id`, `first_pid_m`, `group_size_m`, `pid_m`, `pid_n`), `offs_am` / `offs_bn` wrapped by `% M` / `% N` as the tutorial does so that loads need no mask, the K loop in `BLOCK_SIZE_K` steps with the `offs_k < K - k * BLOCK_SIZE_K` mask as a `bool`, `if constexpr (ACTIVATION == 1)` for the fused activation, a `__device__ __forceinline__` `leaky_relu`, and the `c_mask` store; the tutorial's `tl.arange` over the 16 x 16 tile becomes one thread an element (256 threads), its `tl.dot` a per-thread loop; inputs `uniform(-1,1)`.

#include <cuda_fp16.h>

__device__ __forceinline__ float leaky_relu(float x)
{
    return x >= 0.0f ? x : 0.01f * x;
}

/* @optiml
   sizes:     M=4096 N=4096 K=2048   # a_ptr 16 MiB, b_ptr 16 MiB in, c_ptr 32 MiB out (fp16); 68.7 GFLOP
   check:     M=1 N=1 K=1; M=2 N=3 K=5; M=17 N=33 K=40; M=100 N=1 K=64; M=130 N=129 K=31; M=1 N=300 K=7; M=257 N=16 K=100
   template:  BLOCK_SIZE_M=16 BLOCK_SIZE_N=16 BLOCK_SIZE_K=32 GROUP_SIZE_M=8 ACTIVATION=1
   a_ptr:     in  __half[M*K]
   b_ptr:     in  __half[K*N]
   c_ptr:     out __half[M*N]
   stride_am: K
   stride_ak: 1
   stride_bk: N
   stride_bn: 1
   stride_cm: N
   stride_cn: 1
   launch:    grid=cdiv(M,BLOCK_SIZE_M)*cdiv(N,BLOCK_SIZE_N) block=BLOCK_SIZE_M*BLOCK_SIZE_N
   flops:     2*M*N*K
   tol:       2e-3
*/
template <int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M, int ACTIVATION>
__global__ void matmul_kernel(const __half* a_ptr, const __half* b_ptr, __half* c_ptr,
                              int M, int N, int K,
                              int stride_am, int stride_ak,
                              int stride_bk, int stride_bn,
                              int stride_cm, int stride_cn)
{
    // Map the program id to the block of C it computes, in groups of GROUP_SIZE_M rows of blocks (L2 reuse).
    const int pid = blockIdx.x;                                       // tl.program_id(axis=0)
    const int num_pid_m = (M + BLOCK_SIZE_M - 1) / BLOCK_SIZE_M;      // tl.cdiv(M, BLOCK_SIZE_M)
    const int num_pid_n = (N + BLOCK_SIZE_N - 1) / BLOCK_SIZE_N;      // tl.cdiv(N, BLOCK_SIZE_N)
    const int num_pid_in_group = GROUP_SIZE_M * num_pid_n;
    const int group_id = pid / num_pid_in_group;
    const int first_pid_m = group_id * GROUP_SIZE_M;
    const int group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M);
    const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
    const int pid_n = (pid % num_pid_in_group) / group_size_m;

    // This thread's element of the tile: tl.arange(0, BLOCK_SIZE_M)[:, None], tl.arange(0, BLOCK_SIZE_N)[None, :]
    const int tm = static_cast<int>(threadIdx.x) / BLOCK_SIZE_N;
    const int tn = static_cast<int>(threadIdx.x) % BLOCK_SIZE_N;
    const int offs_am = (pid_m * BLOCK_SIZE_M + tm) % M;
    const int offs_bn = (pid_n * BLOCK_SIZE_N + tn) % N;

    float accumulator{0.0f};
    for (int k = 0; k < (K + BLOCK_SIZE_K - 1) / BLOCK_SIZE_K; ++k) {
        for (int kk = 0; kk < BLOCK_SIZE_K; ++kk) {
            const int offs_k = kk;                                    // tl.arange(0, BLOCK_SIZE_K)
            const bool k_mask = offs_k < K - k * BLOCK_SIZE_K;
            const int kidx = k * BLOCK_SIZE_K + offs_k;
            const float a = k_mask ? __half2float(a_ptr[offs_am * stride_am + kidx * stride_ak]) : 0.0f;
            const float b = k_mask ? __half2float(b_ptr[kidx * stride_bk + offs_bn * stride_bn]) : 0.0f;
            accumulator += a * b;
        }
    }
    if constexpr (ACTIVATION == 1) {
        accumulator = leaky_relu(accumulator);
    }

    const int offs_cm = pid_m * BLOCK_SIZE_M + tm;
    const int offs_cn = pid_n * BLOCK_SIZE_N + tn;
    const bool c_mask = (offs_cm < M) && (offs_cn < N);
    if (c_mask) {
        c_ptr[stride_cm * offs_cm + stride_cn * offs_cn] = __float2half(accumulator);
    }
}

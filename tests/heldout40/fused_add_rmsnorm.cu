// residual = input + residual; input = residual * rsqrt(mean(residual^2, -1) + eps) * weight, both buffers updated in place: vLLM's fused_add_rms_norm (the residual-stream add of one decoder layer fused with the RMSNorm of the next; PyTorch `residual = x + residual; x = residual * torch.rsqrt(residual.pow(2).mean(-1, keepdim=True) + eps) * weight`, Llama's `LlamaRMSNorm` with the residual add), Llama-2-7B's hidden size 4096 over 4096 tokens, fp32; one block a token (`template <int BLOCK_SIZE>`, `__launch_bounds__`), threads striding the row, the sum written back to `residual` and re-read in the second pass, a templated `blockReduceSum` with a `static __shared__` array inside whose total is valid in thread 0 only, thread 0 broadcasting the rsqrt through `__shared__ float s_variance`; `int64_t` row offsets, `__restrict__`; input and residual `normal(0,1)`, weight `uniform(0.5,1.5)`.

#include <cstdint>

template <typename T>
__inline__ __device__ T warpReduceSum(T val)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        val += __shfl_xor_sync(0xffffffff, val, mask, 32);
    return val;
}

// Sum of val over the block. The result is only valid in thread 0.
template <typename T>
__inline__ __device__ T blockReduceSum(T val)
{
    static __shared__ T shared[32];
    int lane = threadIdx.x & 0x1f;
    int wid = threadIdx.x >> 5;

    val = warpReduceSum<T>(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();

    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
    if (wid == 0)
        val = warpReduceSum<T>(val);
    return val;
}

/* @optiml
   sizes:    num_tokens=4096 hidden_size=4096   # input, residual 64 MiB each in and out (inout), weight 16 KiB in; 100.7 MFLOP
   check:    num_tokens=1 hidden_size=1; num_tokens=3 hidden_size=7; num_tokens=5 hidden_size=256; num_tokens=4 hidden_size=1000; num_tokens=2 hidden_size=4099; num_tokens=17 hidden_size=33; num_tokens=6 hidden_size=257
   template: BLOCK_SIZE=256
   input:    inout float[num_tokens*hidden_size] normal(0,1)
   residual: inout float[num_tokens*hidden_size] normal(0,1)
   weight:   in    float[hidden_size] uniform(0.5,1.5)
   epsilon:  1e-6
   launch:   grid=num_tokens block=BLOCK_SIZE
   flops:    6*num_tokens*hidden_size
   tol:      1e-5
*/
template <int BLOCK_SIZE>
__global__ void __launch_bounds__(BLOCK_SIZE)
fused_add_rms_norm(float* __restrict__ input,           // [num_tokens, hidden_size], normalised in place
                   float* __restrict__ residual,        // [num_tokens, hidden_size], input + residual in place
                   const float* __restrict__ weight,    // [hidden_size]
                   const float epsilon, const int num_tokens, const int hidden_size)
{
    __shared__ float s_variance;
    const int64_t row_offset = (int64_t)blockIdx.x * hidden_size;
    float variance = 0.0f;

    for (int idx = threadIdx.x; idx < hidden_size; idx += BLOCK_SIZE) {
        float z = input[row_offset + idx] + residual[row_offset + idx];
        variance += z * z;
        residual[row_offset + idx] = z;
    }
    variance = blockReduceSum<float>(variance);
    if (threadIdx.x == 0) {
        s_variance = rsqrtf(variance / hidden_size + epsilon);
    }
    __syncthreads();

    for (int idx = threadIdx.x; idx < hidden_size; idx += BLOCK_SIZE) {
        float x = residual[row_offset + idx];
        input[row_offset + idx] = x * s_variance * weight[idx];
    }
}

// out[t][h][2i] = x0 cos[t][i] - x1 sin[t][i], out[t][h][2i+1] = x1 cos[t][i] + x0 sin[t][i] with (x0, x1) = q[t][h][2i], q[t][h][2i+1]: rotary position embedding in the interleaved (GPT-J) pairing on an fp16 T x H x D query tensor with fp32 cos / sin tables of T x D/2, fp32 math; one thread per pair, an unsigned grid-stride loop.
#include <cuda_fp16.h>

/* @optiml
   sizes:     T=8192 H=32 D=128         # 2^25 halves: 64 MiB in, 64 MiB out; cos and sin 2 MiB each
   check:     T=1 H=1 D=2; T=3 H=2 D=6; T=17 H=5 D=64; T=100 H=1 D=10; T=2 H=7 D=128
   q:         in  half[T*H*D]
   cos_cache: in  float[T*(D//2)]
   sin_cache: in  float[T*(D//2)]
   out:       out half[T*H*D]
   launch:    grid=min(cdiv(T*H*(D//2),256),4096) block=256
   flops:     3*T*H*D
   tol:       1e-2                      # fp16 output
*/
__global__ void rope_interleaved_half(const __half* __restrict__ q, const float* __restrict__ cos_cache,
                                      const float* __restrict__ sin_cache, __half* __restrict__ out,
                                      int T, int H, int D)
{
    const unsigned half_d = static_cast<unsigned>(D) / 2u;
    const unsigned npairs = static_cast<unsigned>(T) * static_cast<unsigned>(H) * half_d;
    for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < npairs; p += blockDim.x * gridDim.x) {
        const unsigned i = p % half_d;
        const unsigned t = p / half_d / static_cast<unsigned>(H);
        const float c = cos_cache[t * half_d + i];
        const float s = sin_cache[t * half_d + i];
        const float x0 = __half2float(q[2u * p]);
        const float x1 = __half2float(q[2u * p + 1u]);
        out[2u * p] = __float2half(x0 * c - x1 * s);
        out[2u * p + 1u] = __float2half(x1 * c + x0 * s);
    }
}

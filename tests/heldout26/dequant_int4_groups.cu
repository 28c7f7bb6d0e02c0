// w[r][k] = (q[r][k] - zero[r][k / 128]) * scale[r][k / 128] with q the 4-bit code of column k, two codes a byte (the even column in the low nibble, the odd one in the high nibble): group-wise int4 weight dequantization to fp16 (the W4A16 format of AWQ / GPTQ / HQQ checkpoints, group size 128, an fp16 scale and a 4-bit zero point per group), a Llama-7B MLP weight of 11008 x 4096; one thread per packed byte on a 2-D grid (bytes on x, rows on y), writing its two outputs.
#include <cstdint>
#include <cuda_fp16.h>

#define GROUP 128

/* @optiml
   sizes:   N=11008 K=4096              # qweight 21.5 MiB in, scales 688 KiB, zeros 344 KiB in, w 86 MiB out (fp16)
   check:   N=1 K=2; N=3 K=6; N=2 K=128; N=5 K=130; N=4 K=256; N=7 K=258; N=33 K=1000
   qweight: in  uint8_t[N*(K/2)] range(0,256)
   scales:  in  __half[N*cdiv(K,128)] uniform(0.001,0.02)
   zeros:   in  uint8_t[N*cdiv(K,128)] range(0,16)
   w:       out __half[N*K]
   launch:  grid=(cdiv(K/2,256),N) block=256
   flops:   4*N*K
   tol:     1e-3
*/
__global__ void dequant_int4_groups(const uint8_t* qweight, const __half* scales, const uint8_t* zeros, __half* w,
                                    int N, int K)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;   // packed byte in the row
    int r = blockIdx.y;
    int half_k = K / 2;
    if (b >= half_k || r >= N)
        return;

    int groups = (K + GROUP - 1) / GROUP;
    uint8_t packed = qweight[(size_t)r * half_k + b];
    int k0 = 2 * b;
    int g = k0 / GROUP;                               // k0 and k0 + 1 share a group (GROUP is even)
    float s = __half2float(scales[(size_t)r * groups + g]);
    int z = zeros[(size_t)r * groups + g];

    int lo = packed & 0x0F;
    int hi = packed >> 4;
    w[(size_t)r * K + k0] = __float2half((float)(lo - z) * s);
    w[(size_t)r * K + k0 + 1] = __float2half((float)(hi - z) * s);
}

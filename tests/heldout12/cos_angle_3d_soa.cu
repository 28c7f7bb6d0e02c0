// cosang[i] = (a_i . b_i) / max(|a_i| * |b_i|, 1e-8) for paired 3-D vectors a_i = (ax, ay, az)[i], b_i = (bx, by, bz)[i] stored as six separate arrays (structure of arrays).
__device__ __forceinline__ float dot3(float x0, float y0, float z0, float x1, float y1, float z1) { return x0 * x1 + y0 * y1 + z0 * z1; }

/* @optiml
   sizes:  n=8388608                    # 2^23 vectors: 6 x 32 MiB in, 32 MiB out
   check:  n=1; n=255; n=1000003
   ax:     in  float[n]
   ay:     in  float[n]
   az:     in  float[n]
   bx:     in  float[n]
   by:     in  float[n]
   bz:     in  float[n]
   cosang: out float[n]
   launch: grid=cdiv(n,128) block=128
   flops:  20*n
*/
__global__ void cos_angle_3d(const float* ax, const float* ay, const float* az,
                             const float* bx, const float* by, const float* bz,
                             float* cosang, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x0 = ax[i], y0 = ay[i], z0 = az[i];
    float x1 = bx[i], y1 = by[i], z1 = bz[i];
    float d = dot3(x0, y0, z0, x1, y1, z1);
    float na = dot3(x0, y0, z0, x0, y0, z0);
    float nb = dot3(x1, y1, z1, x1, y1, z1);
    cosang[i] = d / fmaxf(sqrtf(na) * sqrtf(nb), 1e-8f);
}

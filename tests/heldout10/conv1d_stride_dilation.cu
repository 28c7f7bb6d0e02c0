// out[r][o] = sum over k < K of x[r][2*o + 2*k] * w[k]: valid 1-D convolution per row with stride 2 and dilation 2; x is rows x L, out is rows x ((L - 2*(K-1) - 1)/2 + 1).
#define STRIDE 2
#define DILATION 2

/* @optiml
   sizes:  rows=1024 L=65536 K=9        # 256 MiB in, 128 MiB out
   check:  rows=1 L=17 K=9; rows=3 L=100 K=9; rows=5 L=1000 K=1; rows=2 L=8 K=3; rows=1 L=1 K=1
   x:      in  float[rows*L]
   w:      in  float[K]
   out:    out float[rows*((L-2*(K-1)-1)/2+1)]
   launch: grid=(cdiv((L-2*(K-1)-1)/2+1,128),rows) block=128
   flops:  2*K*rows*((L-2*(K-1)-1)/2+1)
   tol:    1e-4
*/
extern "C" __global__ void conv1d_s2d2(const float* x, const float* w, float* out, int rows, int L, int K)
{
    int L_out = (L - DILATION * (K - 1) - 1) / STRIDE + 1;
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (o >= L_out || r >= rows)
        return;
    const float* xr = x + (size_t)r * L;
    float s = 0.f;
    for (int k = 0; k < K; ++k)
        s += xr[o * STRIDE + k * DILATION] * w[k];
    out[(size_t)r * L_out + o] = s;
}

// out[r,j] = max(x[r,2j], x[r,2j+1], x[r,2j+2]) for j < (L-3)/2+1 (1-D max pool, window 3, stride 2, no padding); x is rows x L row-major.
#define WIN 3
#define STRIDE 2

/* @optiml
   sizes:  rows=4096 L=4096
   x:      in float[rows*L]
   out:    out float[rows*((L-3)/2+1)]
   launch: grid=(cdiv((L-3)/2+1,256),rows) block=(256,1)
*/
__global__ void maxpool1d_k3s2(const float* x, float* out, int rows, int L)
{
    int L_out = (L - WIN) / STRIDE + 1;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (r < rows && j < L_out) {
        const float* xr = x + (size_t)r * L;
        int start = j * STRIDE;
        float m = xr[start];
        for (int k = 1; k < WIN; k++)
            m = fmaxf(m, xr[start + k]);
        out[(size_t)r * L_out + j] = m;
    }
}

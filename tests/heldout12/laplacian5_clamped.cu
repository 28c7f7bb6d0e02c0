// out[r][c] = x[r-1][c] + x[r+1][c] + x[r][c-1] + x[r][c+1] - 4*x[r][c]: 2-D 5-point Laplacian of an H x W grid, neighbours outside the grid clamped to the edge (replicate padding).
__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

/* @optiml
   sizes:  H=8192 W=8192                # 2^26 floats: 256 MiB in, 256 MiB out
   check:  H=1 W=1; H=3 W=5; H=17 W=33; H=2 W=1001; H=100 W=1
   x:      in  float[H*W]
   out:    out float[H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8)) block=(32,8)
   flops:  5*H*W
*/
__global__ void laplacian5(const float* x, float* out, int H, int W)
{
    const int dr[4] = {-1, 1, 0, 0};
    const int dc[4] = {0, 0, -1, 1};
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < H && col < W) {
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            int rr = clampi(row + dr[k], 0, H - 1);
            int cc = clampi(col + dc[k], 0, W - 1);
            acc += x[rr * W + cc];
        }
        out[row * W + col] = acc - 4.0f * x[row * W + col];
    }
}

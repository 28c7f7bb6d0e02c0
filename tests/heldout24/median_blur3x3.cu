// y[p][i][j] = median of the 3 x 3 neighbourhood of x[p][i][j], zero outside the image: kornia.filters.median_blur(x, (3, 3)) (torch.median over F.unfold(x, 3, padding=1) of each plane) on 64 planes of 512 x 512; one thread per output pixel on a 3-D grid (blockIdx.z = plane) of 16 x 16 blocks, the nine values gathered into a local array, sorted by insertion sort, the fifth one written.

/* @optiml
   sizes:   P=64 H=512 W=512            # x 64 MiB in, y 64 MiB out
   check:   P=1 H=1 W=1; P=2 H=3 W=5; P=1 H=16 W=16; P=3 H=17 W=33; P=1 H=2 W=100; P=2 H=31 W=7
   x:       in  float[P*H*W]
   y:       out float[P*H*W]
   launch:  grid=(cdiv(W,16),cdiv(H,16),P) block=(16,16)
   flops:   45*P*H*W
   tol:     1e-5
*/
__global__ void median_blur3x3(const float* x, float* y, int P, int H, int W)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;

    if (row < H && col < W) {
        const float* plane = x + (long)p * H * W;
        float v[9];
        int n = 0;
        for (int di = -1; di <= 1; di++)
            for (int dj = -1; dj <= 1; dj++) {
                int r = row + di, c = col + dj;
                v[n++] = (r >= 0 && r < H && c >= 0 && c < W) ? plane[r * W + c] : 0.0f;
            }

        for (int a = 1; a < 9; a++) {
            float key = v[a];
            int b = a - 1;
            while (b >= 0 && v[b] > key) {
                v[b + 1] = v[b];
                b--;
            }
            v[b + 1] = key;
        }

        y[(long)p * H * W + row * W + col] = v[4];
    }
}

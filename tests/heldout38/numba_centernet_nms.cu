// out[p, y, x] = heat[p, y, x] if heat[p, y, x] = max of heat[p] over the 3 x 3 window at (y, x) (cells outside the map left out), else 0: CenterNet's `_nms(heat, kernel=3)` (`hmax = F.max_pool2d(heat, 3, stride=1, padding=1); keep = (hmax == heat).float(); return heat * keep`), the peak extraction on the class heatmaps before top-k decoding, for 32 images of 512 x 512 (heatmaps `[32, 80, 128, 128]`, 2560 planes); hand-translated from a Numba `@cuda.jit` kernel, the original kept in comments: `x, y, p = cuda.grid(3)` spelled out one line each, the `if x >= W or y >= H or p >= P: return` guard, `-INFINITY` for Numba's `-math.inf`, `continue` past the out-of-map rows and columns, a `long long` plane offset and the keep test as a ternary on an exact float compare; a 3-D grid `(cdiv(W,32), cdiv(H,8), P)` of `(32, 8, 1)` blocks; heat `uniform(0,1)` (sigmoid outputs).

// Numba original:
//
//   @cuda.jit
//   def heatmap_nms(heat, out):
//       x, y, p = cuda.grid(3)
//       P, H, W = heat.shape
//       if x >= W or y >= H or p >= P:
//           return
//       hmax = -math.inf
//       for dy in range(-1, 2):
//           ...
//       out[p, y, x] = heat[p, y, x] if hmax == heat[p, y, x] else 0.0

/* @optiml
   sizes:  P=2560 H=128 W=128   # heat 160 MiB in, out 160 MiB out (41.9 M cells); 377 MFLOP (nine compares a cell)
   check:  P=1 H=1 W=1; P=2 H=1 W=5; P=3 H=7 W=1; P=1 H=2 W=2; P=2 H=9 W=33; P=1 H=37 W=257; P=4 H=64 W=31; P=1 H=128 W=128
   heat:   in  float[P*H*W] uniform(0,1)
   out:    out float[P*H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8),P) block=(32,8,1)
   flops:  9*P*H*W
   tol:    1e-6
*/
__global__ void heatmap_nms(const float* heat, float* out, int P, int H, int W)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;   // cuda.grid(3)[0]
    const int y = blockIdx.y * blockDim.y + threadIdx.y;   // cuda.grid(3)[1]
    const int p = blockIdx.z * blockDim.z + threadIdx.z;   // cuda.grid(3)[2]
    if (x >= W || y >= H || p >= P)
        return;

    const long long base = (long long)p * H * W;
    const float h = heat[base + y * W + x];
    float hmax = -INFINITY;
    for (int dy = -1; dy <= 1; dy++) {
        const int yy = y + dy;
        if (yy < 0 || yy >= H)
            continue;
        for (int dx = -1; dx <= 1; dx++) {
            const int xx = x + dx;
            if (xx < 0 || xx >= W)
                continue;
            hmax = fmaxf(hmax, heat[base + yy * W + xx]);
        }
    }
    out[base + y * W + x] = (hmax == h) ? h : 0.0f;
}

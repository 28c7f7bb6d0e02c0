// d[b][i][j] = sum_k |x1[b][i][k] - x2[b][j][k]|: `torch.cdist(x1, x2, p=1)` (batched Manhattan distances, as a k-nearest-neighbour search or a Laplacian kernel over 64-dimensional features computes them) on x1 [8, 2048, 64] and x2 [8, 2048, 64] fp32 -> [8, 2048, 2048]; one thread per distance on a 3-D grid of (32, 8) blocks (j on x, i on y, the batch on z), a braced bounds if, a function-like `AT3(b, r, c, R, C)` macro for the three-axis offsets, `#pragma unroll 4` on the feature loop, `fabsf`, `long` offsets, torch.cdist's names for the extents (P, R rows of M features).

#define AT3(b, r, c, R, C) (((long)(b) * (R) + (r)) * (C) + (c))

/* @optiml
   sizes:   B=8 P=2048 R=2048 M=64   # x1 4 MiB in, x2 4 MiB in, d 128 MiB out; 6.4 GFLOP
   check:   B=1 P=1 R=1 M=1; B=2 P=3 R=5 M=7; B=1 P=17 R=33 M=64; B=3 P=9 R=40 M=2; B=1 P=2 R=300 M=5; B=2 P=65 R=17 M=33
   x1:      in  float[B*P*M]
   x2:      in  float[B*R*M]
   d:       out float[B*P*R]
   launch:  grid=(cdiv(R,32),cdiv(P,8),B) block=(32,8)
   flops:   3*B*P*R*M
*/
__global__ void cdist_l1(const float* x1, const float* x2, float* d, int B, int P, int R, int M)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (i < P && j < R) {
        float s = 0.0f;
#pragma unroll 4
        for (int k = 0; k < M; ++k)
            s += fabsf(x1[AT3(b, i, k, P, M)] - x2[AT3(b, j, k, R, M)]);
        d[AT3(b, i, j, P, R)] = s;
    }
}

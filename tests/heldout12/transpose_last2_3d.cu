// y[b][j][i] = x[b][i][j]: swap the last two axes of a B x M x N tensor (x.transpose(1, 2)), a 1-D block of 256 threads split into a 32 x 8 tile with % and /.
#define TILE_W 32
#define TILE_H 8

/* @optiml
   sizes:  B=16 M=1024 N=2048           # 2^25 floats: 128 MiB in, 128 MiB out
   check:  B=1 M=1 N=1; B=2 M=3 N=5; B=3 M=33 N=17; B=1 M=2 N=1000; B=4 M=100 N=1
   x:      in  float[B*M*N]
   y:      out float[B*N*M]
   launch: grid=(cdiv(N,32),cdiv(M,8),B) block=256
*/
__global__ void transpose_last2(const float* __restrict__ x, float* __restrict__ y, int B, int M, int N)
{
    int tx = threadIdx.x % TILE_W;
    int ty = threadIdx.x / TILE_W;
    int j = blockIdx.x * TILE_W + tx;
    int i = blockIdx.y * TILE_H + ty;
    size_t b = blockIdx.z;
    if (i < M && j < N)
        y[(b * N + j) * M + i] = x[(b * M + i) * N + j];
}

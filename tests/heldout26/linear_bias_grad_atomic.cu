// db[c] = sum_n dy[n][c]: the bias gradient of nn.Linear in the backward pass (`grad_output.sum(0)`, what autograd's addmm backward computes for the bias) over 32768 tokens of 1024 features; a 2-D grid, x over 256-column strips, y over chunks of 128 rows (#define ROWS_PER_BLOCK 128), each thread summing its column down its chunk (coalesced across the warp), then one float atomicAdd into db per thread; db zeroed before the launch.

#define ROWS_PER_BLOCK 128

/* @optiml
   sizes:   N=32768 C=1024              # dy 128 MiB in, db 4 KiB read and written
   check:   N=1 C=1; N=3 C=7; N=128 C=255; N=129 C=256; N=300 C=257; N=1000 C=33; N=2 C=1000
   dy:      in    float[N*C]
   db:      inout float[C] const(0)
   launch:  grid=(cdiv(C,256),cdiv(N,128)) block=256
   flops:   N*C
   tol:     1e-4
*/
__global__ void linear_bias_grad(const float* __restrict__ dy, float* __restrict__ db, int N, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C)
        return;

    int n0 = blockIdx.y * ROWS_PER_BLOCK;
    int n1 = min(n0 + ROWS_PER_BLOCK, N);
    float partial = 0.0f;
    for (int n = n0; n < n1; ++n)
        partial += dy[(size_t)n * C + c];
    atomicAdd(&db[c], partial);
}

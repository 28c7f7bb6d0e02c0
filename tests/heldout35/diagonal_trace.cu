// diag[b][i] = x[b][i][i] and tr[b] = sum_i x[b][i][i]: `torch.diagonal(x, dim1=-2, dim2=-1)` and `torch.diagonal(x, dim1=-2, dim2=-1).sum(-1)` (the per-matrix trace of a batch, as a trace regulariser or a log-determinant from Cholesky factors takes it) on x [64, 1024, 1024] fp32, two outputs; an assistant's one-thread-per-diagonal-element kernel: a 1-D launch over B * N, `idx / N` and `idx % N` for the matrix and the position, a `size_t` offset for the matrix, the combined write of the diagonal and an `atomicAdd` of the same value into the zero-initialised trace.

/* @optiml
   sizes:   B=64 N=1024   # x 256 MiB of which only the diagonal is read (one 32-byte sector an element), diag 256 KiB out, tr 256 B inout
   check:   B=1 N=1; B=3 N=5; B=2 N=300; B=7 N=33; B=130 N=2; B=1 N=257
   x:       in    float[B*N*N]
   diag:    out   float[B*N]
   tr:      inout float[B] const(0)
   launch:  grid=cdiv(B*N,256) block=256
   flops:   B*N
   bytes:   32*B*N + 4*B*N + 8*B
   tol:     1e-5
*/
__global__ void diagonal_trace(const float* x, float* diag, float* tr, int B, int N)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * N) {
        int b = idx / N;
        int i = idx % N;
        float v = x[(size_t)b * N * N + i * N + i];
        diag[idx] = v;
        atomicAdd(&tr[b], v);
    }
}

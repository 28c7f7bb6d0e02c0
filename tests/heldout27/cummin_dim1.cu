// values[b][l][d] = min over l' <= l of x[b][l'][d], indices[b][l][d] = the l' holding that minimum (the latest one on a tie): `torch.cummin(x, dim=1)` (a KernelBench-style cumulative op along the middle axis) on [64, 1024, 128] fp32, values and int64 indices; one thread per (b, d) column walking its 1024 steps in order, the flat thread index split by / and %, `<=` for PyTorch's tie rule, a running pointer stepped by D.
#include <cstdint>

/* @optiml
   sizes:   B=64 L=1024 D=128           # x 32 MiB in, values 32 MiB out, indices 64 MiB out (int64)
   check:   B=1 L=1 D=1; B=2 L=7 D=3; B=1 L=300 D=1; B=3 L=33 D=257; B=5 L=2 D=100; B=1 L=1000 D=7; B=2 L=64 D=255
   x:       in  float[B*L*D]
   values:  out float[B*L*D]
   indices: out int64_t[B*L*D]
   launch:  grid=cdiv(B*D,256) block=256
   flops:   B*L*D
   tol:     1e-5
*/
__global__ void cummin_dim1(const float* x, float* values, int64_t* indices, int B, int L, int D)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= B * D)
        return;

    int b = t / D;
    int d = t % D;
    size_t off = (size_t)b * L * D + d;

    float best = x[off];
    int64_t arg = 0;
    for (int l = 0; l < L; l++, off += D) {
        float v = x[off];
        if (v <= best) {
            best = v;
            arg = l;
        }
        values[off] = best;
        indices[off] = arg;
    }
}

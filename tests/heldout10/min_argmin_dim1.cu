// vals[b][p] = min over c of x[b][c][p] and idx[b][p] = the first c attaining it; x is B x C x P row-major (torch.min(x, dim=1)).
/* @optiml
   sizes:  B=32 C=512 P=4096            # 2^26 floats: 256 MiB in; 512 KiB + 1 MiB out
   check:  B=1 C=1 P=1; B=2 C=3 P=5; B=3 C=33 P=17; B=1 C=200 P=1
   x:      in  float[B*C*P]
   vals:   out float[B*P]
   idx:    out int64[B*P]
   launch: grid=(cdiv(P,128),B) block=128
*/
__global__ void min_argmin_dim1(const float* x, float* vals, long long* idx, int B, int C, int P)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (p < P) {
        const float* base = x + (size_t)b * C * P + p;
        float best = base[0];
        long long arg = 0;
        for (int c = 1; c < C; c++) {
            float v = base[(size_t)c * P];
            if (v < best) { best = v; arg = c; }
        }
        vals[b * P + p] = best;
        idx[b * P + p] = arg;
    }
}

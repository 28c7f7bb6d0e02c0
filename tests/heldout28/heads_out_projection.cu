// out[b][s][e] = sum_h sum_d o[b][h][s][d] * W[h][d][e]: the output projection of multi-head attention as one contraction over the heads and the head dimension (`torch.einsum("bhsd,hde->bse", o, W)`, the einsum form of `o.transpose(1, 2).reshape(B, S, H * D) @ W_o`), o straight from attention in [B, H, S, D] layout, B = 4, H = 16, S = 512, D = 64, E = 1024, fp32; one thread per output in a long grid-stride loop capped at 1024 blocks of 256, the flat index split by / and % into (b, s, e), a pointer into o stepped by S * D from head to head.

/* @optiml
   sizes:   B=4 H=16 S=512 D=64 E=1024   # o 8 MiB in, W 4 MiB in, out 8 MiB out; 4.3 GFLOP
   check:   B=1 H=1 S=1 D=1 E=1; B=2 H=3 S=5 D=4 E=7; B=1 H=2 S=9 D=16 E=33; B=3 H=4 S=2 D=8 E=257; B=1 H=1 S=17 D=64 E=3; B=2 H=5 S=3 D=3 E=100; B=1 H=1 S=257 D=1 E=1031
   o:       in  float[B*H*S*D]
   W:       in  float[H*D*E]
   out:     out float[B*S*E]
   launch:  grid=min(cdiv(B*S*E,256),1024) block=256
   flops:   2*B*S*E*H*D
   tol:     1e-4
*/
__global__ void heads_out_projection(const float* o, const float* W, float* out,
                                     int B, int H, int S, int D, int E)
{
    long total = (long)B * S * E;
    for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += (long)gridDim.x * blockDim.x) {
        int e = t % E;
        int s = (t / E) % S;
        int b = t / ((long)E * S);
        const float* oh = o + ((long)b * H * S + s) * D;    // head 0, position s
        float acc = 0.0f;
        for (int h = 0; h < H; h++) {
            const float* wh = W + (long)h * D * E;
            for (int d = 0; d < D; d++)
                acc += oh[d] * wh[(long)d * E + e];
            oh += (long)S * D;
        }
        out[t] = acc;
    }
}

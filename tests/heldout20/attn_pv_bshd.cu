// out[b][s][h][d] = sum over t of P[b][h][s][t] * V[b][t][h][d]: the attention output of eager attention, torch.matmul(attn_weights, value_states) with the probabilities [B, H, S, S] and the values still in the projection's [B, S, H, D] layout, written straight into the [B, S, H, D] layout that .transpose(1, 2).contiguous() gives (Hugging Face eager_attention_forward); one thread per output, a 3-D grid with (b, h) on z.
/* @optiml
   sizes:  B=2 H=16 S=1024 D=128        # P 128 MiB, V 16 MiB in, out 16 MiB
   check:  B=1 H=1 S=1 D=1; B=2 H=3 S=7 D=5; B=1 H=2 S=33 D=64; B=2 H=1 S=100 D=17; B=1 H=4 S=9 D=128; B=3 H=2 S=2 D=40
   P:      in  float[B*H*S*S]
   V:      in  float[B*S*H*D]
   out:    out float[B*S*H*D]
   launch: grid=(cdiv(D,32),cdiv(S,8),B*H) block=(32,8)
   flops:  2*B*H*S*S*D
   tol:    1e-4
*/
__global__ void attn_probs_times_v(const float* P, const float* V, float* out, int B, int H, int S, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int s = blockIdx.y * blockDim.y + threadIdx.y;
    int bh = blockIdx.z;
    int b = bh / H;
    int h = bh % H;
    if (d < D && s < S) {
        const float* p = P + ((size_t)bh * S + s) * S;
        float acc = 0.0f;
        for (int t = 0; t < S; t++)
            acc += p[t] * V[(((size_t)b * S + t) * H + h) * D + d];
        out[(((size_t)b * S + s) * H + h) * D + d] = acc;
    }
}

// cy = sigmoid(f) * cx + sigmoid(i) * tanh(g), hy = sigmoid(o) * tanh(cy), where (i, f, g, o) are the four H-wide chunks of each row of the B x 4H pre-activation gates (x W_ih^T + b_ih + h W_hh^T + b_hh, nn.LSTMCell's order): the pointwise half of an LSTM cell; one thread per (batch, hidden unit), two outputs.
__device__ inline float sigmoid_(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

/* @optiml
   sizes:  B=256 H=16384                # 4M units: 64 MiB of gates, 16 MiB of cx in, 2 x 16 MiB out
   check:  B=1 H=1; B=3 H=5; B=2 H=257; B=17 H=33; B=1 H=1000
   gates:  in  float[B*4*H] normal(0,2)
   cx:     in  float[B*H]
   hy:     out float[B*H]
   cy:     out float[B*H]
   launch: grid=(cdiv(H,256),B) block=256
   flops:  20*B*H
*/
__global__ void lstm_cell_fwd(const float* gates, const float* cx, float* hy, float* cy, int B, int H)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (j < H && b < B) {
        const float* g = gates + (size_t)b * 4 * H;
        float ig = sigmoid_(g[j]);
        float fg = sigmoid_(g[H + j]);
        float cg = tanhf(g[2 * H + j]);
        float og = sigmoid_(g[3 * H + j]);

        size_t k = (size_t)b * H + j;
        float c = fg * cx[k] + ig * cg;
        cy[k] = c;
        hy[k] = og * tanhf(c);
    }
}

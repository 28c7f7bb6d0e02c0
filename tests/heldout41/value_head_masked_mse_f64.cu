// loss = 0.5 * mean_{s,t} [t < lengths[s]] * (hidden[s, t, :] . w + v_bias - returns[s, t])^2: a critic's value-head loss over padded sequences (`values = F.linear(hidden, w, b).squeeze(-1); mask = torch.arange(T) < lengths[:, None]; loss = 0.5 * ((values - returns) ** 2 * mask).mean()`), 64 sequences x 512 steps, hidden size 1024, fp64; written naively: one thread per (sequence, step) on a 1-D launch, the `long long` flat index split by / and % into the sequence and the step, early return past the end and on padding, the value head's dot product in a plain loop, and one fp64 `atomicAdd` of each masked squared error (halved and divided by B*T) into the zero-initialised scalar; hidden `normal(0,1)`, w `uniform(-0.03125,0.03125)` (nn.Linear's bound 1/sqrt(1024)), v_bias 0.1, returns `normal(0,1)`, int32 lengths `range(1,600)`.

/* @optiml
   sizes:   B=64 T=512 D=1024   # hidden 256 MiB, w 8 KiB, returns 256 KiB, lengths 256 B in, loss 8 B in and out; 0.07 GFLOP
   check:   B=1 T=1 D=1; B=2 T=3 D=5; B=3 T=100 D=64; B=2 T=700 D=16; B=5 T=129 D=33; B=1 T=1 D=1024; B=4 T=600 D=7
   hidden:  in    double[B*T*D] normal(0,1)
   w:       in    double[D] uniform(-0.03125,0.03125)
   v_bias:  0.1
   returns: in    double[B*T] normal(0,1)
   lengths: in    int[B] range(1,600)
   loss:    inout double[1] const(0)
   launch:  grid=cdiv(B*T,128) block=128
   flops:   2*B*T*D + 5*B*T
   tol:     1e-10
*/
__global__ void value_head_masked_mse(const double* hidden, const double* w, double v_bias, const double* returns,
                                      const int* lengths, double* loss, int B, int T, int D)
{
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)B * T)
        return;

    int s = (int)(idx / T);     // sequence
    int t = (int)(idx % T);     // step
    if (t >= lengths[s])
        return;                 // padding

    const double* h = hidden + idx * D;
    double v = v_bias;
    for (int k = 0; k < D; k++)
        v += h[k] * w[k];

    double err = v - returns[idx];
    atomicAdd(loss, 0.5 * err * err / ((double)B * T));
}

// h[b][t][d] = a[b][t][d] * h[b][t-1][d] + x[b][t][d], h[b][-1][d] = 0: a first-order linear recurrence (the diagonal state-space / linear-RNN scan, per-step decays a) along the time axis of a B x T x D tensor; one thread per (batch, channel), sequential over T.
/* @optiml
   sizes:  B=8 T=2048 D=1024            # 2^24 floats each: a and x 128 MiB in, h 64 MiB out
   check:  B=1 T=1 D=1; B=2 T=5 D=3; B=3 T=100 D=33; B=1 T=7 D=300; B=4 T=1000 D=1
   a:      in  float[B*T*D] uniform(0,1)   # decays in [0, 1): the state stays bounded
   x:      in  float[B*T*D]
   h:      out float[B*T*D]
   launch: grid=(cdiv(D,128),B) block=128
   flops:  2*B*T*D
   tol:    1e-4
*/
__global__ void linear_recurrence(const float* __restrict__ a, const float* __restrict__ x, float* __restrict__ h,
                                  int B, int T, int D)
{
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y;
    if (d >= D)
        return;

    size_t idx = (size_t)b * T * D + d;    // element (b, 0, d); steps of D along t
    float state = 0.0f;
    for (int t = 0; t < T; ++t, idx += D) {
        state = a[idx] * state + x[idx];
        h[idx] = state;
    }
}

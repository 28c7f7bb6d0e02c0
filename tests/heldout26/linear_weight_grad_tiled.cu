// dW[o][i] = sum_t dy[t][o] * x[t][i]: the weight gradient of nn.Linear in the backward pass (`grad_output.t().mm(input)`, autograd's mm backward for the weight) over 16384 tokens, 768 outputs by 1024 inputs; 16 x 16 shared-memory tiles (#define TILE 16) of dy and x loaded along the token axis (both coalesced over their feature axis, zero-filled past the edges), dy's tile read transposed from shared memory, one output per thread, two __syncthreads per step.
#define TILE 16

/* @optiml
   sizes:   T=16384 O=768 I=1024        # dy 48 MiB in, x 64 MiB in, dW 3 MiB out
   check:   T=1 O=1 I=1; T=3 O=7 I=5; T=17 O=16 I=16; T=33 O=17 I=40; T=100 O=3 I=33; T=16 O=50 I=1; T=64 O=20 I=31
   dy:      in  float[T*O]
   x:       in  float[T*I]
   dW:      out float[O*I]
   launch:  grid=(cdiv(I,16),cdiv(O,16)) block=(16,16)
   flops:   2*T*O*I
   tol:     1e-4
*/
__global__ void linear_weight_grad(const float* dy, const float* x, float* dW, int T, int O, int I)
{
    __shared__ float dyT[TILE][TILE];   // [t][o]
    __shared__ float xs[TILE][TILE];    // [t][i]

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int o = blockIdx.y * TILE + ty;
    int i = blockIdx.x * TILE + tx;
    int o_load = blockIdx.y * TILE + tx;

    float acc = 0.0f;
    for (int t0 = 0; t0 < T; t0 += TILE) {
        int t = t0 + ty;
        dyT[ty][tx] = (t < T && o_load < O) ? dy[(size_t)t * O + o_load] : 0.0f;
        xs[ty][tx] = (t < T && i < I) ? x[(size_t)t * I + i] : 0.0f;
        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            acc += dyT[k][ty] * xs[k][tx];
        __syncthreads();
    }

    if (o < O && i < I)
        dW[(size_t)o * I + i] = acc;
}

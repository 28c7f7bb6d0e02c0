// y[b][i] = sum_{k=0..6} w[k] * x[b][i + k - 3], zero outside the signal: F.conv1d(x.view(B, 1, L), w.view(1, 1, 7), padding=3), one 7-tap filter run along 64 signals of 262144 samples (KernelBench level 1's 1-D convolution with one input and one output channel); a 1-D stencil where each block of 256 threads stages its 256 samples plus a 3-sample halo on each side in shared memory (the first 3 threads load the halos), then each thread applies the 7 taps from shared memory.
#define BLOCK 256
#define RADIUS 3

/* @optiml
   sizes:   B=64 L=262144               # x 64 MiB in, y 64 MiB out, w 28 B
   check:   B=1 L=1; B=2 L=7; B=3 L=256; B=1 L=257; B=4 L=1000; B=2 L=4099; B=5 L=3
   x:       in  float[B*L]
   w:       in  float[7]
   y:       out float[B*L]
   launch:  grid=(cdiv(L,256),B) block=256
   flops:   14*B*L
   tol:     1e-5
*/
__global__ void conv1d_halo(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int B,
                            long L)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];

    const float* xb = x + blockIdx.y * L;
    float* yb = y + blockIdx.y * L;
    long i = (long)blockIdx.x * BLOCK + threadIdx.x;
    int t = threadIdx.x + RADIUS;

    tile[t] = (i < L) ? xb[i] : 0.0f;
    if (threadIdx.x < RADIUS) {
        long left = i - RADIUS;
        long right = i + BLOCK;
        tile[threadIdx.x] = (left >= 0) ? xb[left] : 0.0f;
        tile[t + BLOCK] = (right < L) ? xb[right] : 0.0f;
    }
    __syncthreads();

    if (i < L) {
        float acc = 0.0f;
        for (int k = 0; k < 2 * RADIUS + 1; k++)
            acc += w[k] * tile[threadIdx.x + k];
        yb[i] = acc;
    }
}

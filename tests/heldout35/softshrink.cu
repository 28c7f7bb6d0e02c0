// y = x - lambd where x > lambd, x + lambd where x < -lambd, else 0, with lambd = 0.5: `F.softshrink(x, lambd=0.5)` (nn.Softshrink, the soft-thresholding step of ISTA-style sparse coding and wavelet denoising) on 33554432 fp32 values `uniform(-3,3)`; the tutorial grid-stride loop an assistant writes for "any size": `int index = blockIdx.x * blockDim.x + threadIdx.x; int stride = blockDim.x * gridDim.x; for (int i = index; i < n; i += stride)`, the grid capped at 2048 blocks of 256 (64 elements a thread at the benchmark size), an if / else-if / else chain, lambd a float argument with its own contract line.

/* @optiml
   sizes:   n=33554432   # x 128 MiB in, y 128 MiB out; 67 MFLOP
   check:   n=1; n=7; n=257; n=1000; n=4099; n=600001
   x:       in  float[n] uniform(-3,3)
   y:       out float[n]
   lambd:   0.5
   launch:  grid=min(cdiv(n,256),2048) block=256
   flops:   2*n
   tol:     1e-6
*/
__global__ void softshrink(const float* x, float* y, float lambd, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride) {
        float v = x[i];
        if (v > lambd)
            y[i] = v - lambd;
        else if (v < -lambd)
            y[i] = v + lambd;
        else
            y[i] = 0.0f;
    }
}

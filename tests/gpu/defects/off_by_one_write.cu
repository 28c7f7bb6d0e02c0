// Planted defect: `i <= n` writes one element past the end of the output (caught by compute-sanitizer memcheck).
// expect: crash | memcheck
/* @optiml
   sizes:  n=16777216
   check:  n=1000003; n=1024
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

/* @optiml
   sizes:  n=16777216
   check:  n=1000003; n=1024
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n+1,256) block=256
   reference: scale
*/
__global__ void scale_off_by_one(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = 2.0f * x[i];
}

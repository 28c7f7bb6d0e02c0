// Planted defect: `i <= n` writes one element past the end of the output (caught by compute-sanitizer memcheck).
// Without the sanitizer, what the stray write hits decides the verdict: unmapped memory (a crash), or a buffer of the
// worker's that the next run reads, so that two runs on the same inputs disagree (seen on an H100 with a worker
// that had run other jobs before).
// expect: crash race | memcheck
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

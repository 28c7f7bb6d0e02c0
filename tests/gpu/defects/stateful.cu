// Planted defect: computes once, then skips the work on later launches (state kept in a device global).
// expect: stateful
__device__ int already_done = 0;

/* @optiml
   sizes:  n=16777216
   check:  n=1000
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void relu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

/* @optiml
   sizes:  n=16777216
   check:  n=1000
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   reference: relu
*/
__global__ void relu_once(const float* x, float* y, int n) {
    if (already_done) return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
    if (i == n - 1) already_done = 1;
}

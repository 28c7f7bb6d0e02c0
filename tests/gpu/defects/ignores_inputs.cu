// Planted defect: returns a constant that happens to be the mean of the input distribution.
// expect: ignores_inputs
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
__global__ void relu_constant(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.25f;
}

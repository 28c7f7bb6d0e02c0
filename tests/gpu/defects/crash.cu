// Planted defect: writes through a wild pointer (an illegal address that corrupts the CUDA context).
// expect: crash
/* @optiml
   sizes:  n=1048576
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void relu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

/* @optiml
   sizes:  n=1048576
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   reference: relu
*/
__global__ void relu_wild(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* wild = (float*)0x10;
    if (i < n) wild[i * 4096] = x[i];
}

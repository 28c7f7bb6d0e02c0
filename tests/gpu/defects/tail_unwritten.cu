// Planted defect: four elements per thread, and the tail (n % 4) is forgotten: some outputs are never written.
// expect: unwritten
/* @optiml
   sizes:  n=16777216
   check:  n=1000003; n=3
   a:      in  float[n]
   b:      in  float[n]
   c:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* @optiml
   sizes:  n=16777216
   check:  n=1000003; n=3
   a:      in  float[n]
   b:      in  float[n]
   c:      out float[n]
   launch: grid=cdiv(n,1024) block=256
   reference: add
*/
__global__ void add_by4_no_tail(const float* a, const float* b, float* c, int n) {
    int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 3 < n) {
        for (int k = 0; k < 4; ++k) c[i + k] = a[i + k] + b[i + k];
    }
}

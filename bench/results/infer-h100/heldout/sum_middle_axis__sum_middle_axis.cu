/* @optiml
   sizes:  B=256 M=256 N=256
   x:      in float[B*M*N]
   out:    out float[B*N]
   launch: grid=(cdiv(N,256),B) block=(256,1)
*/
__global__ void sum_middle_axis(const float* x, float* out, int B, int M, int N)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (n < N && b < B) {
        const float* slab = x + (size_t)b * M * N;
        float acc = 0.0f;
        for (int m = 0; m < M; m++) {
            acc += slab[(size_t)m * N + n];
        }
        out[b * N + n] = acc;
    }
}

// (x, y, z)[i] /= max(sqrt(x[i]^2 + y[i]^2 + z[i]^2), 1e-12): normalize n 3-D vectors to unit length in place, stored as three separate arrays (structure of arrays).
__device__ __forceinline__ float inv_length(float a, float b, float c)
{
    float len2 = a * a + b * b + c * c;
    float len = sqrtf(len2);
    return 1.0f / fmaxf(len, 1e-12f);
}

/* @optiml
   sizes:  n=16777216                   # 2^24 vectors: x, y, z each read and written (6 x 64 MiB)
   check:  n=1; n=255; n=1000003
   x:      inout float[n]
   y:      inout float[n]
   z:      inout float[n]
   launch: grid=cdiv(n,256) block=256
   flops:  10*n
*/
__global__ void normalize3d_soa(float* x, float* y, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float vx = x[i], vy = y[i], vz = z[i];
        float s = inv_length(vx, vy, vz);
        x[i] = vx * s;
        y[i] = vy * s;
        z[i] = vz * s;
    }
}

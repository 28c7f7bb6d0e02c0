// u_next[i] = u[i] + r * (-u[i-2] + 16u[i-1] - 30u[i] + 16u[i+1] - u[i+2]) / 12 for 2 <= i < n-2 (4th-order 5-point Laplacian), u_next[i] = u[i] at the 2 points nearest each end.
#define RADIUS 2

/* @optiml
   sizes:  n=16777216
   u:      in float[n]
   u_next: out float[n]
   r:      0.5
   launch: grid=cdiv(n,256) block=256
*/
__global__ void heat1d_5pt(const float* u, float* u_next, float r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i < RADIUS || i >= n - RADIUS) {
        u_next[i] = u[i];
        return;
    }
    float lap = (-u[i - 2] + 16.0f * u[i - 1] - 30.0f * u[i] + 16.0f * u[i + 1] - u[i + 2]) / 12.0f;
    u_next[i] = u[i] + r * lap;
}

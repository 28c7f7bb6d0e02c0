// u_new = u + alpha * (u[i-1,j,k] + u[i+1,j,k] + u[i,j-1,k] + u[i,j+1,k] + u[i,j,k-1] + u[i,j,k+1] - 6*u) at interior points of an nz x ny x nx grid of doubles; boundary points copied.
#define IDX(i, j, k) (((size_t)(k) * ny + (j)) * nx + (i))

/* @optiml
   sizes:  nx=256 ny=256 nz=256         # 2^24 doubles: 128 MiB in, 128 MiB out
   check:  nx=1 ny=1 nz=1; nx=3 ny=4 nz=5; nx=33 ny=7 nz=2; nx=2 ny=9 nz=3
   u:      in  double[nx*ny*nz]
   u_new:  out double[nx*ny*nz]
   alpha:  0.1
   launch: grid=(cdiv(nx,32),cdiv(ny,4),cdiv(nz,2)) block=(32,4,2)
   flops:  9*nx*ny*nz
*/
__global__ void heat3d_7pt(const double* u, double* u_new, double alpha, int nx, int ny, int nz)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.z * blockDim.z + threadIdx.z;
    if (i >= nx || j >= ny || k >= nz) return;

    size_t c = IDX(i, j, k);
    if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) {
        u_new[c] = u[c];
        return;
    }
    double lap = u[IDX(i - 1, j, k)] + u[IDX(i + 1, j, k)]
               + u[IDX(i, j - 1, k)] + u[IDX(i, j + 1, k)]
               + u[IDX(i, j, k - 1)] + u[IDX(i, j, k + 1)]
               - 6.0 * u[c];
    u_new[c] = u[c] + alpha * lap;
}

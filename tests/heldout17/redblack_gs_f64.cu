// u[j][i] = (1 - omega) u[j][i] + omega * (u[j][i-1] + u[j][i+1] + u[j-1][i] + u[j+1][i] - h2 f[j][i]) / 4 at the interior "red" points ((i + j) even) of an ny x nx grid, in place: the red half-sweep of red-black successive over-relaxation for the 2-D Poisson equation (red points read only black neighbours, so the in-place update is race free); boundary and black points are left as they are.
/* @optiml
   sizes:  nx=4096 ny=2048              # 2^23 doubles: u 64 MiB read and written, f 64 MiB in
   check:  nx=1 ny=1; nx=3 ny=3; nx=5 ny=7; nx=33 ny=2; nx=2 ny=40; nx=64 ny=65
   u:      inout double[nx*ny]
   f:      in    double[nx*ny]
   h2:     0.0001
   omega:  1.5
   launch: grid=(cdiv(nx,64),cdiv(ny,4)) block=(64,4)
   flops:  4*nx*ny
*/
__global__ void sor_red_sweep(double* u, const double* f, double h2, double omega, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
        return;                 // boundary (Dirichlet, fixed) or outside
    if ((i + j) & 1)
        return;                 // black point: updated by the other half-sweep

    size_t c = (size_t)j * nx + i;
    double gs = 0.25 * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] - h2 * f[c]);
    u[c] = (1.0 - omega) * u[c] + omega * gs;
}

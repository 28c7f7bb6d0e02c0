// out[j][i] = c0 u[j][i] + c1 (u[j][i-1] + u[j][i+1] + u[j-1][i] + u[j+1][i]) + c2 (u[j-1][i-1] + u[j-1][i+1] + u[j+1][i-1] + u[j+1][i+1]) at interior points, out = u on the boundary: one explicit step of a 9-point (compact, Mehrstellen-type) smoothing / diffusion stencil on an ny x nx double grid; one thread per column marching down the rows with three row pointers in a while loop.
/* @optiml
   sizes:  nx=8192 ny=2048              # 2^24 doubles: 128 MiB in, 128 MiB out
   check:  nx=1 ny=1; nx=2 ny=5; nx=5 ny=2; nx=3 ny=3; nx=33 ny=17; nx=100 ny=1; nx=1 ny=40
   u:      in  double[nx*ny]
   out:    out double[nx*ny]
   c0:     0.4
   c1:     0.1
   c2:     0.05
   launch: grid=cdiv(nx,256) block=256
   flops:  11*nx*ny
*/
__global__ void stencil9_march_f64(const double* __restrict__ u, double* __restrict__ out, int nx, int ny,
                                   double c0, double c1, double c2)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;

    if (i == 0 || i == nx - 1) {              // boundary column: copied
        for (int j = 0; j < ny; ++j)
            out[(size_t)j * nx + i] = u[(size_t)j * nx + i];
        return;
    }

    out[i] = u[i];                             // top row
    const double* north = u + i;
    const double* centre = north + nx;
    const double* south = centre + nx;
    double* o = out + nx + i;
    int j = 1;
    while (j < ny - 1) {
        *o = c0 * centre[0]
           + c1 * (centre[-1] + centre[1] + north[0] + south[0])
           + c2 * (north[-1] + north[1] + south[-1] + south[1]);
        north = centre;
        centre = south;
        south += nx;
        o += nx;
        ++j;
    }
    if (ny > 1)
        out[(size_t)(ny - 1) * nx + i] = u[(size_t)(ny - 1) * nx + i];   // bottom row
}

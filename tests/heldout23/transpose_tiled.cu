// y[c][r] = x[r][c]: x.t().contiguous() (torch.transpose(x, 0, 1) materialized) on a 4096 x 4096 fp32 matrix; the shared-memory tiled transpose of the CUDA samples: a 32 x 33 tile (one padding column against bank conflicts), blocks of 32 x 8 threads each loading four rows of the tile from x and, after __syncthreads(), storing four rows of the transposed tile to y.
#define TILE_DIM 32
#define BLOCK_ROWS 8

/* @optiml
   sizes:   rows=4096 cols=4096         # x 64 MiB in, y 64 MiB out
   check:   rows=1 cols=1; rows=7 cols=5; rows=33 cols=65; rows=100 cols=3; rows=1 cols=77; rows=64 cols=64; rows=41 cols=1
   x:       in  float[rows*cols]
   y:       out float[rows*cols]
   launch:  grid=(cdiv(cols,32),cdiv(rows,32)) block=(32,8)
   tol:     1e-5
*/
__global__ void transpose_tiled(const float* x, float* y, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;   // column of x
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;   // row of x
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (xIndex < cols && yIndex + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = x[(yIndex + j) * cols + xIndex];
    }
    __syncthreads();

    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;       // column of y = row of x
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;       // row of y = column of x
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (xIndex < rows && yIndex + j < cols)
            y[(yIndex + j) * rows + xIndex] = tile[threadIdx.x][threadIdx.y + j];
    }
}

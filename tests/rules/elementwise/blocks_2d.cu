// 2-D kernels for the block-size knob: one that takes its block from the launch, one that hard-codes it.

/* @optiml
   sizes:  height=3000 width=5000
   check:  height=1 width=1; height=37 width=3; height=5 width=1000
   src:       in  float[height*width]
   row_scale: in  float[height]
   dst:       out float[height*width]
   launch: grid=(cdiv(width,16),cdiv(height,16)) block=(16,16)
*/
__global__ void __launch_bounds__(256) scale_rows_2d(const float* src, const float* row_scale, float* dst,
                                                      int height, int width)
{
    const int y = blockDim.y * blockIdx.y + threadIdx.y;
    const int x = threadIdx.x + blockIdx.x * blockDim.x;
    if (x >= width || y >= height) return;
    dst[y * width + x] = src[x + width * y] * row_scale[y];
}

// Tiled transpose: a 32x33 shared tile and threadIdx arithmetic fix the block at 32x8.
/* @optiml
   sizes:  rows=2048 cols=4096
   check:  rows=1 cols=1; rows=33 cols=65
   in:     in  float[rows*cols]
   out:    out float[cols*rows]
   launch: grid=(cdiv(cols,32),cdiv(rows,32)) block=(32,8)
*/
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    int r = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) {
        if (r + k < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(r + k) * cols + c];
    }
    __syncthreads();
    c = blockIdx.y * 32 + threadIdx.x;
    r = blockIdx.x * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) {
        if (r + k < cols && c < rows) out[(r + k) * rows + c] = tile[threadIdx.x][threadIdx.y + k];
    }
}

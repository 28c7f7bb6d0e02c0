// out[b][j][i] = in[b][i][j] for b < batch, a batch of rows x cols matrices transposed.
/* @optiml
   sizes:  batch=64 rows=1024 cols=1024
   check:  batch=2 rows=3 cols=5; batch=1 rows=1 cols=1; batch=3 rows=33 cols=17
   in:     in  float[batch*rows*cols]
   out:    out float[batch*cols*rows]
   launch: grid=(cdiv(cols,16),cdiv(rows,16),batch) block=(16,16)
*/
__global__ void batched_transpose(const float* in, float* out, int batch, int rows, int cols)
{
    int j = blockIdx.x * 16 + threadIdx.x;
    int i = blockIdx.y * 16 + threadIdx.y;
    int b = blockIdx.z;
    if (i < rows && j < cols)
        out[((size_t)b * cols + j) * rows + i] = in[((size_t)b * rows + i) * cols + j];
}

// sad[r] = sum over c of |a[r][c] - b[r][c]|: sum of absolute differences between matching rows of two rows x cols matrices (row-wise L1 distance).
/* @optiml
   sizes:  rows=32768 cols=1024         # 2 x 128 MiB in, 128 KiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=129 cols=2
   a:      in  float[rows*cols]
   b:      in  float[rows*cols]
   sad:    out float[rows]
   launch: grid=cdiv(rows,128) block=128
   flops:  3*rows*cols
   tol:    1e-4
*/
__global__ void sad_rows(const float* a, const float* b, float* sad, unsigned int rows, unsigned int cols)
{
    unsigned int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < rows) {
        const float* pa = a + (size_t)r * cols;
        const float* pb = b + (size_t)r * cols;
        float acc = 0.0f;
        for (unsigned int c = 0; c < cols; c++)
            acc += fabsf(*(pa + c) - *(pb + c));
        sad[r] = acc;
    }
}

// counts[r] = how many elements of row r are positive, means[r] = their mean: accumulations under a condition,
// an int counter incremented with ++, and a per-row store inside an if with an else.
/* @optiml
   sizes:  rows=16384 cols=2048
   check:  rows=37 cols=1000; rows=1 cols=3; rows=100 cols=1; rows=9 cols=4097
   x:      in  float[rows*cols]
   counts: out int[rows]
   means:  out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void row_positive_mean(const float* x, int* counts, float* means, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    int count = 0;
    float total = 0.0f;
    for (int c = 0; c < cols; c++) {
        float v = x[(size_t)i * cols + c];
        if (v <= 0.0f)
            continue;
        total += v;
        count++;
    }
    counts[i] = count;
    if (count > 0)
        means[i] = total / count;
    else
        means[i] = 0.0f;
}

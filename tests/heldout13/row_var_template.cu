// var[r] = (1/cols) * sum over c of (x[r][c] - mean_r)^2: the biased (population) variance of each row of a rows x cols matrix, two passes, one thread per row.
/* @optiml
   sizes:    rows=65536 cols=1024       # 2^26 floats: 256 MiB in (read twice), 256 KiB out
   check:    rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=129 cols=2
   template: BLOCK=128
   x:        in  float[rows*cols]
   var:      out float[rows]
   launch:   grid=cdiv(rows,BLOCK) block=BLOCK
   flops:    4*rows*cols
   tol:      1e-4
*/
template <int BLOCK>
__global__ void row_var(const float* x, float* var, int rows, int cols)
{
    int r = blockIdx.x * BLOCK + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float mean = 0.0f;
    for (int c = 0; c < cols; ++c)
        mean += xr[c];
    mean /= cols;
    float ss = 0.0f;
    for (int c = 0; c < cols; ++c) {
        const float d = xr[c] - mean;
        ss += d * d;
    }
    var[r] = ss / cols;
}

template __global__ void row_var<128>(const float*, float*, int, int);

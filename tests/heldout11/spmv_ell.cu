// y[r] = sum over k < K of vals[k*rows + r] * x[col_idx[k*rows + r]]: sparse matrix-vector product in ELLPACK format (K stored entries per row, stored column-major so entry k of consecutive rows is contiguous), one thread per row.
/* @optiml
   sizes:  rows=1048576 ncols=1048576 K=32   # 128 MiB of vals, 128 MiB of int column indices, 4 MiB of x (each entry drawn 32 times on average), 4 MiB of y
   check:  rows=1 ncols=1048576 K=1; rows=3 ncols=1048576 K=5; rows=1000 ncols=1048577 K=7; rows=33 ncols=1048576 K=64
   vals:    in  float[K*rows]
   col_idx: in  int[K*rows] range(0,1048576)   # every check size has ncols >= 1048576
   x:       in  float[ncols]
   y:       out float[rows]
   launch:  grid=cdiv(rows,128) block=128
   flops:   2*K*rows
   tol:     1e-4
*/
extern "C" __global__ void spmv_ell(int rows, int K, const float* vals, const int* col_idx, const float* x, float* y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        for (int k = 0; k < K; k++) {
            int col = col_idx[k * rows + row];
            dot += vals[k * rows + row] * __ldg(&x[col]);
        }
        y[row] = dot;
    }
}

// dx[r][c] = y[r][c] * (dy[r][c] - sum over c' of dy[r][c'] * y[r][c']): the backward of a row softmax (torch's _softmax_backward_data) given the softmax output y and the upstream gradient dy; one thread per row, two passes.
#define OFF(r) ((long)(r) * ncols)

/* @optiml
   sizes:  nrows=16384 ncols=1024       # 2^24 floats each: y and dy 128 MiB in, dx 64 MiB out
   check:  nrows=1 ncols=1; nrows=3 ncols=5; nrows=70 ncols=33; nrows=1 ncols=4099; nrows=129 ncols=2
   y:      in  float[nrows*ncols] uniform(0,0.002)   # softmax-like: positive, rows summing to about 1 at ncols=1024
   dy:     in  float[nrows*ncols]
   dx:     out float[nrows*ncols]
   launch: grid=cdiv(nrows,64) block=64
   flops:  4*nrows*ncols
   tol:    1e-4
*/
extern "C" __global__ void softmax_backward_rows(const float* y, const float* dy, float* dx, int nrows, int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;

    float dot = 0.0f;
    for (int c = 0; c < ncols; c++)
        dot += dy[OFF(r) + c] * y[OFF(r) + c];

    for (int c = 0; c < ncols; c++)
        dx[OFF(r) + c] = y[OFF(r) + c] * (dy[OFF(r) + c] - dot);
}

// out[r] = log(sum over c of exp(x[r,c])) per row, accumulated online (running max, rescaled sum) over chunks of 8 columns; x is rows x cols row-major.
#define CHUNK 8

/* @optiml
   sizes:  rows=4096 cols=4096
   x:      in float[rows*cols]
   out:    out float[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void logsumexp_chunked(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float run_max = -1e30f;
        float run_sum = 0.0f;
        for (int c0 = 0; c0 < cols; c0 += CHUNK) {
            int c1 = c0 + CHUNK < cols ? c0 + CHUNK : cols;
            float cmax = x[r * cols + c0];
            for (int c = c0 + 1; c < c1; c++)
                cmax = max(cmax, x[r * cols + c]);
            float new_max = max(run_max, cmax);
            float part = 0.0f;
            for (int c = c0; c < c1; c++)
                part += expf(x[r * cols + c] - new_max);
            run_sum = run_sum * expf(run_max - new_max) + part;
            run_max = new_max;
        }
        out[r] = run_max + logf(run_sum);
    }
}

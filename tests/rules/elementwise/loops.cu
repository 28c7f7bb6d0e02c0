// Loops for the unroll knob: reductions written in several ways, and loops it must leave alone.

// Sum with a += step, accumulation through `acc = acc + e`.
/* @optiml
   sizes:  rows=16384 width=512
   check:  rows=1 width=1; rows=3 width=7; rows=100 width=33
   m:      in  float[rows*width]
   wt:     in  float[width]
   out:    out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void weighted_row_sum(const float* m, const float* wt, float* out, int rows, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.0f;
    const float* row = m + (size_t)r * width;
    for (int k = 0; k < width; k += 1) {
        acc = acc + row[k] * wt[k];
    }
    out[r] = acc;
}

// Two reductions through fminf/fmaxf, a loop counting down, a counter.
/* @optiml
   sizes:  rows=16384 cols=300
   check:  rows=1 cols=1; rows=5 cols=2
   x:      in  float[rows*cols]
   range_: out float[rows]
   count:  out int[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void row_range(const float* x, float* range_, int* count, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float lo = x[cols * row], hi = lo;
        int positives = 0;
        for (int c = cols - 1; c >= 0; --c) {
            float v = x[c + cols * row];
            lo = fminf(lo, v);
            hi = fmaxf(v, hi);
            if (v > 0.0f) positives++;
        }
        range_[row] = hi - lo;
        count[row] = positives;
    }
}

// Left alone: a recurrence (run depends on the previous run nonlinearly), a constant trip count, a loop that
// already has a pragma, an early break; the outer loop of a nest (its inner loop is unrolled instead).
/* @optiml
   sizes:  rows=4096 cols=256
   check:  rows=1 cols=1; rows=3 cols=9
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   s:      out float[rows]
   decay:  0.9
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void row_scan_mix(const float* x, float* y, float* s, float decay, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float run = 0.0f;
        for (int c = 0; c < cols; c++) {
            run = run * decay + x[row * cols + c];
            y[row * cols + c] = run;
        }
        float taps = 0.0f;
        for (int t = 0; t < 8; t++) {
            taps += x[row * cols + (t % cols)];
        }
        float total = 0.0f;
        #pragma unroll 2
        for (int c = 0; c < cols; c++) {
            total += x[row * cols + c];
        }
        int first_negative = cols;
        for (int c = 0; c < cols; c++) {
            if (x[row * cols + c] < 0.0f) {
                first_negative = c;
                break;
            }
        }
        float pairs = 0.0f;
        for (int a = 0; a < cols; a += 16) {
            for (int b = a; b < min(cols, a + 16); b++) {
                pairs += x[row * cols + b];
            }
        }
        s[row] = run + taps + total + first_negative + pairs;
    }
}

// loss[r] = 0.5 * KL(P || M) + 0.5 * KL(Q || M) with P = softmax(student[r]), Q = softmax(teacher[r]), M = (P + Q) / 2: the per-token generalized Jensen-Shannon divergence (beta 0.5) of distillation losses (Liger-Kernel's `LigerJSD` / GKD, in PyTorch `m = 0.5 * (p + q); 0.5 * (F.kl_div(m.log(), p, reduction="none") + F.kl_div(m.log(), q, reduction="none")).sum(-1)` on softmaxes of the logits), 1024 tokens over a 32000-word vocabulary (Llama-2), fp32 logits; 2-D blocks of 32 x 8 threads, `threadIdx.y` picking one of the block's 8 rows and `threadIdx.x` striding that row, reductions over a row's 32 lanes through `__shared__ float s[kRows][kLanes]` trees in two `__device__` helpers (`row_max`, `row_sum`, each returning the result to every lane of the row and called five times), three passes (the two maxima, the two sums of exponentials, the divergence), the rows past the end kept in the barriers with no loads, lane 0 writing; file-scope `constexpr int kLanes` / `kRows`, `size_t` row offsets; logits `normal(0,2)`.

constexpr int kLanes = 32;   // threads along a row (threadIdx.x)
constexpr int kRows = 8;     // rows a block (threadIdx.y)

// Max of v over the kLanes threads of this block row; every lane of the row gets it.
__device__ float row_max(float (*s)[kLanes], float v)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    s[ty][tx] = v;
    __syncthreads();
    for (int stride = kLanes / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s[ty][tx] = fmaxf(s[ty][tx], s[ty][tx + stride]);
        __syncthreads();
    }
    float r = s[ty][0];
    __syncthreads();
    return r;
}

// Sum of v over the kLanes threads of this block row; every lane of the row gets it.
__device__ float row_sum(float (*s)[kLanes], float v)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    s[ty][tx] = v;
    __syncthreads();
    for (int stride = kLanes / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s[ty][tx] += s[ty][tx + stride];
        __syncthreads();
    }
    float r = s[ty][0];
    __syncthreads();
    return r;
}

/* @optiml
   sizes:   rows=1024 vocab=32000   # student, teacher 125 MiB each in, loss 4 KiB out; 0.7 GFLOP
   check:   rows=3 vocab=1; rows=1 vocab=2; rows=9 vocab=31; rows=16 vocab=100; rows=17 vocab=33; rows=5 vocab=1000; rows=8 vocab=257; rows=2 vocab=4099
   student: in  float[rows*vocab] normal(0,2)
   teacher: in  float[rows*vocab] normal(0,2)
   loss:    out float[rows]
   launch:  grid=cdiv(rows,8) block=(32,8)
   flops:   20*rows*vocab
   tol:     1e-4
   atol:    1e-6
*/
__global__ void jsd_rows(const float* __restrict__ student, const float* __restrict__ teacher,
                         float* __restrict__ loss, int rows, int vocab)
{
    __shared__ float s[kRows][kLanes];

    const int tx = threadIdx.x;
    const int row = blockIdx.x * kRows + threadIdx.y;
    const bool active = row < rows;          // inactive rows still take part in every barrier
    const float* xs = student + (size_t)row * vocab;
    const float* xt = teacher + (size_t)row * vocab;

    // pass 1: the two row maxima
    float ms = -INFINITY, mt = -INFINITY;
    if (active) {
        for (int j = tx; j < vocab; j += kLanes) {
            ms = fmaxf(ms, xs[j]);
            mt = fmaxf(mt, xt[j]);
        }
    }
    ms = row_max(s, ms);
    mt = row_max(s, mt);

    // pass 2: the two sums of exponentials -> log-normalisers
    float ss = 0.0f, st = 0.0f;
    if (active) {
        for (int j = tx; j < vocab; j += kLanes) {
            ss += expf(xs[j] - ms);
            st += expf(xt[j] - mt);
        }
    }
    ss = row_sum(s, ss);
    st = row_sum(s, st);
    const float lse_s = ms + logf(ss);
    const float lse_t = mt + logf(st);

    // pass 3: 0.5 * sum p (log p - log m) + 0.5 * sum q (log q - log m)
    float acc = 0.0f;
    if (active) {
        for (int j = tx; j < vocab; j += kLanes) {
            float lp = xs[j] - lse_s;
            float lq = xt[j] - lse_t;
            float p = expf(lp), q = expf(lq);
            float lm = logf(0.5f * (p + q));
            acc += 0.5f * (p * (lp - lm) + q * (lq - lm));
        }
    }
    acc = row_sum(s, acc);

    if (active && tx == 0)
        loss[row] = acc;
}

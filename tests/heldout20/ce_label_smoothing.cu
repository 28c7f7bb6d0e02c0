// loss[0] += (1/rows) * sum over r of (lse_r - (1 - eps) * x[r][y_r] - (eps / V) * sum over v of x[r][v]), lse_r = log(sum over v of exp(x[r][v])): mean token cross-entropy with label smoothing, F.cross_entropy(logits, targets, label_smoothing=0.1) over a [rows, V] logit matrix (the loss of Hugging Face Trainer's label_smoothing_factor, fairseq's label-smoothed cross-entropy); loss must start at 0; one thread per row (three running sums over the row after its max) and one atomicAdd per row.
#include <cfloat>

/* @optiml
   sizes:   rows=2048 V=32000           # 250 MiB of logits in, 8 KiB of targets
   check:   rows=1 V=1000; rows=3 V=1001; rows=17 V=1024; rows=2 V=4099; rows=100 V=1000; rows=5 V=32000
   logits:  in    float[rows*V] normal(0,3)
   targets: in    int[rows] range(0,1000)
   loss:    inout float[1] const(0)      # accumulator: zeroed before each run
   eps:     0.1
   launch:  grid=cdiv(rows,64) block=64
   flops:   5*rows*V
   tol:     1e-4
*/
__global__ void ce_label_smoothing_loss(const float* logits, const int* targets, float* loss, float eps,
                                        int rows, int V)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* x = logits + (long)r * V;
        float mx = -FLT_MAX;
        for (int v = 0; v < V; v++)
            mx = fmaxf(mx, x[v]);
        float sum_exp = 0.0f, sum_x = 0.0f;
        for (int v = 0; v < V; v++) {
            sum_exp += expf(x[v] - mx);
            sum_x += x[v];
        }
        float lse = mx + logf(sum_exp);
        float nll = lse - x[targets[r]];
        float smooth = lse - sum_x / V;
        atomicAdd(loss, ((1.0f - eps) * nll + eps * smooth) / rows);
    }
}

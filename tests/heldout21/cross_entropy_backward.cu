// dlogits[r][v] = dloss * (softmax(logits[r])[v] - (v == targets[r])) / rows: the gradient of the mean token cross-entropy F.cross_entropy(logits, targets) with respect to the [rows, V] logits, scaled by the incoming gradient of the loss (PyTorch's nll_loss_backward then _log_softmax_backward_data; llm.c's crossentropy_softmax_backward); one thread per row, a max pass, a sum-of-exponentials pass and a write pass.
#include <cstdint>
#include <cfloat>

/* @optiml
   sizes:   rows=1024 V=50257           # logits 196 MiB in, dlogits 196 MiB out, 8 KiB of targets
   check:   rows=1 V=1000; rows=3 V=1001; rows=17 V=1024; rows=2 V=4099; rows=100 V=1000; rows=4 V=50257
   logits:  in  float[rows*V] normal(0,3)
   targets: in  int64_t[rows] range(0,1000)
   dlogits: out float[rows*V]
   dloss:   0.5
   launch:  grid=cdiv(rows,64) block=64
   flops:   6*rows*V
   tol:     1e-4
*/
__global__ void cross_entropy_backward(const float* logits, const int64_t* targets, float* dlogits, float dloss,
                                       int rows, int V)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* x = logits + (long)r * V;
        float* g = dlogits + (long)r * V;

        float mx = -FLT_MAX;
        for (int v = 0; v < V; v++)
            mx = fmaxf(mx, x[v]);
        float sum = 0.0f;
        for (int v = 0; v < V; v++)
            sum += expf(x[v] - mx);

        float scale = dloss / rows;
        int64_t y = targets[r];
        for (int v = 0; v < V; v++) {
            float p = expf(x[v] - mx) / sum;
            float indicator = (v == y) ? 1.0f : 0.0f;
            g[v] = (p - indicator) * scale;
        }
    }
}

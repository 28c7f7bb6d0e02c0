// y[b][d] = (1 / L_b) sum_{t < L_b} x[b][t][d] with L_b = min(lengths[b], T): the masked average over a padded sequence given its lengths, `mask = torch.arange(T)[None, :] < lengths[:, None]; (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)` (mean pooling of a padded batch of encoder states, as sentence-embedding code and speech classifiers pool them) on x [64, 512, 1024] fp32 with int32 lengths `range(1,513)`; a student's 2-D kernel: `dim3 block(16, 16)` with the feature on x and the sequence on y, an early `return` on the combined bounds check, the length clamped to T by an `if`, a loop over all T steps that skips the padding with `continue`, `float sum = 0.0f`, a division by `(float)len`, plain `int` offsets.

/* @optiml
   sizes:   B=64 T=512 D=1024   # x 128 MiB in, lengths 256 B in, y 256 KiB out; 33.6 MFLOP
   check:   B=1 T=1 D=1; B=3 T=5 D=7; B=17 T=600 D=3; B=2 T=513 D=33; B=5 T=40 D=16; B=20 T=300 D=1
   x:        in  float[B*T*D]
   lengths:  in  int[B] range(1,513)
   y:        out float[B*D]
   launch:   grid=(cdiv(D,16),cdiv(B,16)) block=(16,16)
   flops:    B*T*D + B*D
   tol:      1e-5
*/
__global__ void masked_mean_lengths(const float* x, const int* lengths, float* y, int B, int T, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y * blockDim.y + threadIdx.y;
    if (b >= B || d >= D)
        return;

    int len = lengths[b];
    if (len > T)
        len = T;

    float sum = 0.0f;
    for (int t = 0; t < T; t++) {
        if (t >= len)
            continue;
        sum += x[(b * T + t) * D + d];
    }
    y[b * D + d] = sum / (float)len;
}

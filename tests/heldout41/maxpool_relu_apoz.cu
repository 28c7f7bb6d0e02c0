// zero_count[c] = #{(n, i, j) : max_pool2d(relu(x), 2)[n, c, i, j] == 0}: the per-channel zero counts behind the APoZ (average percentage of zeros) channel-pruning criterion, measured after a ReLU + MaxPool2d(2) stage (`(F.max_pool2d(F.relu(x), 2) == 0).sum(dim=(0, 2, 3))`), on a [64, 256, 56, 56] feature map -> [256] int32 counts; written naively: one thread per pooled output on a 2-D (16, 16) block over (pw, ph) and a 3-D grid whose z is n * C + c (split by / and %), the 2 x 2 window (floor mode) folded into a max seeded with the ReLU's 0 by `fmaxf`, and one `atomicAdd(&zero_count[c], 1)` on an `int` counter when the window is all non-positive; `size_t` plane offset, `__restrict__` on the input only; x `normal(-0.3,1)` (about a quarter of the windows are zero).

/* @optiml
   sizes:      N=64 C=256 H=56 W=56   # x 196 MiB in, zero_count 1 KiB in and out; 0.05 GFLOP
   check:      N=1 C=1 H=2 W=2; N=2 C=3 H=5 W=7; N=3 C=4 H=37 W=50; N=1 C=256 H=8 W=8; N=2 C=2 H=2 W=70; N=4 C=5 H=33 W=33; N=2 C=64 H=14 W=15; N=5 C=1 H=3 W=2
   x:          in    float[N*C*H*W] normal(-0.3,1)
   zero_count: inout int[C] const(0)
   launch:     grid=(cdiv(W/2,16),cdiv(H/2,16),N*C) block=(16,16)
   flops:      4*N*C*(H/2)*(W/2)
   tol:        1e-5
*/
__global__ void apoz_maxpool2d_relu(const float* __restrict__ x, int* zero_count, int N, int C, int H, int W)
{
    const int PH = H / 2, PW = W / 2;
    const int pw = blockIdx.x * blockDim.x + threadIdx.x;
    const int ph = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / C;
    const int c = blockIdx.z % C;

    if (pw < PW && ph < PH) {
        const float* plane = x + (size_t)(n * C + c) * H * W;
        float m = 0.0f;   // relu: nothing below 0
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
                m = fmaxf(m, plane[(2 * ph + dy) * W + 2 * pw + dx]);
        if (m == 0.0f)
            atomicAdd(&zero_count[c], 1);
    }
}

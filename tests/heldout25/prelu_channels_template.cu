// y[n][c][h][w] = x > 0 ? x : weight[c] * x: nn.PReLU(num_parameters=64) (F.prelu with one learned slope per channel, as in the PReLU-Net and ENet encoders) on [16, 64, 128, 128]; a `template <typename T>` kernel instantiated for float, one thread per element on a 1-D launch, the channel as (i / HW) % C, a ternary on the sign, the total and the plane size passed as int arguments, a braced `if (i < total)` body, an explicit instantiation.

/* @optiml
   template: T=float
   sizes:   N=16 C=64 H=128 W=128       # x 64 MiB in, y 64 MiB out, weight 256 B
   check:   N=1 C=1 H=1 W=1; N=2 C=3 H=5 W=7; N=1 C=64 H=4 W=4; N=3 C=2 H=9 W=33; N=2 C=7 H=1 W=100; N=1 C=17 H=11 W=13
   x:       in  T[N*C*H*W]
   weight:  in  T[C] uniform(0,0.5)
   y:       out T[N*C*H*W]
   total:   N*C*H*W
   HW:      H*W
   launch:  grid=cdiv(N*C*H*W,256) block=256
   flops:   2*N*C*H*W
   tol:     1e-5
*/
template <typename T>
__global__ void prelu_forward(const T* x, const T* weight, T* y, int total, int C, int HW)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        int c = (i / HW) % C;
        T v = x[i];
        y[i] = v > T(0) ? v : weight[c] * v;
    }
}

template __global__ void prelu_forward<float>(const float*, const float*, float*, int, int, int);

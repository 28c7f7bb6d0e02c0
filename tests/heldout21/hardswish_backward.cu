// dx = 0 where x < -3, dy * (x / 3 + 0.5) where -3 <= x <= 3, dy where x > 3: the backward of nn.Hardswish (MobileNetV3's activation; ATen's hardswish_backward) on an NCHW activation; one thread per element, a 2-D grid with the (n, c) plane on y, an if / else-if / else chain.
/* @optiml
   sizes:  P=6144 HW=3136               # N*C = 64*96 planes of 56 x 56: dy 73.5 MiB, x 73.5 MiB in, dx 73.5 MiB out
   check:  P=1 HW=1; P=3 HW=7; P=17 HW=1000; P=2 HW=4099; P=300 HW=2; P=5 HW=256
   dy:     in  float[P*HW]
   x:      in  float[P*HW] uniform(-5,5)
   dx:     out float[P*HW]
   launch: grid=(cdiv(HW,256),P) block=256
   flops:  3*P*HW
*/
__global__ void hardswish_backward(const float* dy, const float* x, float* dx, int P, int HW)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockIdx.y;
    if (i >= HW || p >= P)
        return;

    long idx = (long)p * HW + i;
    float v = x[idx];
    float g;
    if (v < -3.0f) {
        g = 0.0f;
    } else if (v <= 3.0f) {
        g = dy[idx] * (v / 3.0f + 0.5f);
    } else {
        g = dy[idx];
    }
    dx[idx] = g;
}

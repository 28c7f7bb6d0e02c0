// out = mean of the 5x5 neighbourhood of in, neighbours clamped to the edge with min/max; in and out are
// height x width row-major. Radius 2, loops written `dy < 3` with pre-increment, the row clamped once per row.

/* @optiml
   sizes:  height=4096 width=4096
   check:  height=37 width=1000; height=1 width=3; height=1 width=1; height=1000 width=1; height=3 width=5
   in:     in  float[height*width]
   out:    out float[height*width]
   launch: grid=(cdiv(width,32),cdiv(height,8)) block=(32,8)
*/
__global__ void box5(const float* in, float* out, int height, int width)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (py < height && px < width) {
        float acc = 0.0f;
        for (int dy = -2; dy < 3; ++dy) {
            int sy = min(max(py + dy, 0), height - 1);
            for (int dx = -2; dx < 3; ++dx) {
                acc += in[sy * width + max(0, min(px + dx, width - 1))];
            }
        }
        out[py * width + px] = acc * (1.0f / 25.0f);
    }
}

// odata[p][oy][ox] = bilinear interpolation of idata[p] at (sy, sx), sy = max((oy + 0.5) * IH / OH - 0.5, 0) (likewise sx), the taps clamped to the last row / column: F.interpolate(size=(OH, OW), mode="bilinear", align_corners=False) on the P planes of an NCHW tensor, written after PyTorch's upsample_bilinear2d kernel; one thread per output, 3-D grid with the plane on z.
__device__ static inline float area_pixel_compute_source_index(float scale, int dst_index)
{
    const float src = scale * (dst_index + 0.5f) - 0.5f;
    return src < 0.0f ? 0.0f : src;
}

/* @optiml
   sizes:  P=64 IH=512 IW=512 OH=768 OW=768   # 64 MiB in, 144 MiB out
   check:  P=1 IH=1 IW=1 OH=1 OW=1; P=2 IH=5 IW=7 OH=3 OW=11; P=3 IH=16 IW=9 OH=33 OW=4; P=1 IH=1 IW=20 OH=5 OW=7; P=2 IH=8 IW=8 OH=8 OW=8
   idata:  in  float[P*IH*IW]
   odata:  out float[P*OH*OW]
   launch: grid=(cdiv(OW,32),cdiv(OH,8),P) block=(32,8)
   flops:  11*P*OH*OW
*/
__global__ void resize_bilinear_nchw(const float* idata, float* odata, int P, int IH, int IW, int OH, int OW)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int p = blockIdx.z;
    if (ox >= OW || oy >= OH)
        return;

    const float rheight = (float)IH / OH;
    const float rwidth = (float)IW / OW;

    const float h1r = area_pixel_compute_source_index(rheight, oy);
    const int h1 = (int)h1r;
    const int h1p = (h1 < IH - 1) ? 1 : 0;
    const float h1lambda = h1r - h1;
    const float h0lambda = 1.0f - h1lambda;

    const float w1r = area_pixel_compute_source_index(rwidth, ox);
    const int w1 = (int)w1r;
    const int w1p = (w1 < IW - 1) ? 1 : 0;
    const float w1lambda = w1r - w1;
    const float w0lambda = 1.0f - w1lambda;

    const float* src = idata + (size_t)p * IH * IW + (size_t)h1 * IW + w1;
    odata[((size_t)p * OH + oy) * OW + ox] =
        h0lambda * (w0lambda * src[0] + w1lambda * src[w1p]) +
        h1lambda * (w0lambda * src[h1p * IW] + w1lambda * src[h1p * IW + w1p]);
}

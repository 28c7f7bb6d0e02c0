// feats[r] = f / ||f||_2 with f = x[r] @ proj (proj stored [width, embed], the `x @ W` layout): the tail of CLIP's `encode_image` / `encode_text` and the normalisation before the similarity logits (`image_features = x @ self.proj; image_features = image_features / image_features.norm(dim=1, keepdim=True)`), ViT-L/14's width 1024 projected to 768 for 32768 image tokens pooled per image (a retrieval-index build), fp32; one warp a row on a 1-D launch of 128 threads (four rows a block), the warp index from the global thread index, a whole-warp early return, lanes striding over the 768 outputs with the dot product down a column of proj, the unnormalised outputs written first, the sum of squares reduced by `__shfl_xor_sync` (every lane gets it), then each lane rescaling the outputs it wrote; `__restrict__` pointers, `size_t` offsets; x `uniform(-1,1)`, proj `uniform(-0.03,0.03)` (CLIP's init std width^-0.5 = 0.031).

/* @optiml
   sizes:   n=32768 width=1024 embed=768   # x 128 MiB, proj 3 MiB in, feats 96 MiB out; 51.6 GFLOP
   check:   n=1 width=1 embed=1; n=3 width=5 embed=7; n=5 width=64 embed=33; n=9 width=31 embed=100; n=4 width=17 embed=768; n=130 width=12 embed=40; n=2 width=200 embed=32
   x:       in  float[n*width]
   proj:    in  float[width*embed] uniform(-0.03,0.03)
   feats:   out float[n*embed]
   launch:  grid=cdiv(n,4) block=128
   flops:   2*n*width*embed + 3*n*embed
   tol:     1e-5
*/
__global__ void clip_project_l2normalize(const float* __restrict__ x, const float* __restrict__ proj,
                                         float* __restrict__ feats, int n, int width, int embed)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (warp >= n)
        return;                               // the whole warp leaves together

    const float* xr = x + (size_t)warp * width;
    float* fr = feats + (size_t)warp * embed;

    float ss = 0.0f;
    for (int e = lane; e < embed; e += 32) {
        float acc = 0.0f;
        for (int k = 0; k < width; ++k)
            acc += xr[k] * proj[(size_t)k * embed + e];
        fr[e] = acc;
        ss += acc * acc;
    }
    for (int offset = 16; offset > 0; offset >>= 1)
        ss += __shfl_xor_sync(0xffffffffu, ss, offset);

    float inv_norm = 1.0f / sqrtf(ss);
    for (int e = lane; e < embed; e += 32)
        fr[e] *= inv_norm;
}

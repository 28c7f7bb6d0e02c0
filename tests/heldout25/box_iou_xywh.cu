// iou[i][j] = |a_i ∩ b_j| / (|a_i| + |b_j| - |a_i ∩ b_j|) for boxes stored in COCO's (x, y, w, h) form: torchvision.ops.box_iou(box_convert(a, "xywh", "xyxy"), box_convert(b, "xywh", "xyxy")) of 4096 predicted boxes against 8192 anchors / ground-truth boxes; one thread per pair on a 2-D grid of 32 x 8 blocks, an early return, each box read as one float4 through reinterpret_cast, a __device__ __forceinline__ helper for the overlap of two intervals clamped at 0.

__device__ __forceinline__ float overlap(float lo1, float hi1, float lo2, float hi2)
{
    return fmaxf(fminf(hi1, hi2) - fmaxf(lo1, lo2), 0.0f);
}

/* @optiml
   sizes:   N=4096 M=8192               # iou 128 MiB out, boxes1 64 KiB and boxes2 128 KiB in
   check:   N=1 M=1; N=2 M=3; N=7 M=33; N=33 M=8; N=100 M=31; N=9 M=257
   boxes1:  in  float[4*N] uniform(0,1)
   boxes2:  in  float[4*M] uniform(0,1)
   iou:     out float[N*M]
   launch:  grid=(cdiv(M,32),cdiv(N,8)) block=(32,8)
   flops:   14*N*M
   tol:     1e-5
*/
__global__ void box_iou_xywh(const float* boxes1, const float* boxes2, float* iou, int N, int M)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= N || j >= M)
        return;

    float4 a = reinterpret_cast<const float4*>(boxes1)[i];   // x, y, w, h
    float4 b = reinterpret_cast<const float4*>(boxes2)[j];

    float iw = overlap(a.x, a.x + a.z, b.x, b.x + b.z);
    float ih = overlap(a.y, a.y + a.w, b.y, b.y + b.w);
    float inter = iw * ih;
    float uni = a.z * a.w + b.z * b.w - inter;
    iou[(size_t)i * M + j] = inter / uni;
}

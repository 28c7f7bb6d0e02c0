"""Independent PyTorch implementations of the thirty-first held-out set of kernels (tests/heldout38/*.cu), in the
form of tests/heldout37/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output:
flat tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user (or the library the kernel ports) computes each operator, with PyTorch calls on whole
tensors, not as translations of the kernels: `torch.bucketize` against the sorted boundaries, `torch.stft`'s framing
as a reflect `F.pad` and `Tensor.unfold` times the window, `torch.abs` / `torch.angle` of `torch.view_as_complex`,
YOLOv5's `Detect` decode on the viewed and permuted head output with its `_make_grid` tables, kornia's
`spatial_soft_argmax2d` as a softmax over the flattened plane and an expectation over `torch.linspace` grids,
`torch.amax(x.abs())`, `torch.aminmax(dim=0)`, the Mahalanobis form as `((d @ P) * d).sum(-1)`, Triton's tutorial
result as `F.leaky_relu(a.float() @ b.float())`, kornia's unsharp mask as a reflect-padded `F.conv2d` with the
Gaussian outer product, CenterNet's `_nms` with `F.max_pool2d`, and the Viterbi step with `amax` / `argmax` over
the broadcast sum of scores and transitions. Sums and products run in float64 where the kernel's result is a float
(cast to the kernel's dtype at the end); the Viterbi step stays in float32 so that its argmax sees the same sums
(and ties) as the kernel. Sizes are Python ints, float scalars Python floats. The peers only call operators on their
inputs and on tensors made on the input's device, so they run on a GPU as on the CPU."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _f64(t):
    return t.to(torch.float64)


# --------------------------------------------------------------------------------------------- maps and gathers

def bucketize_kernel(x, boundaries, n, nb, **_):
    # torch.bucketize(x, boundaries, right=False) needs sorted boundaries: sort them first
    return {"out": torch.bucketize(x, torch.sort(boundaries).values, right=False).to(torch.int64)}


def stft_frames(x, window, B, L, n_fft, hop, **_):
    # torch.stft(center=True, pad_mode="reflect") framing: pad n_fft // 2 on both sides, unfold, window
    pad = n_fft // 2
    xp = F.pad(x.view(B, 1, L), (pad, pad), mode="reflect").view(B, L + 2 * pad)
    frames = xp.unfold(-1, n_fft, hop) * window                      # [B, n_frames, n_fft]
    return {"frames": frames.reshape(-1)}


def polar(z, n, **_):
    # magnitude and phase of a complex64 tensor
    c = torch.view_as_complex(z.view(n, 2).contiguous())
    return {"mag": torch.abs(c).to(z.dtype), "phase": torch.angle(c).to(z.dtype)}


def yolo_detect_decode(x, stride, B, nc, ny, nx, **_):
    # YOLOv5 Detect.forward at inference, one level (anchors of P3 in pixels)
    na, no = 3, nc + 5
    anchors = torch.tensor([[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]], dtype=torch.float64, device=x.device)
    p = _f64(x).view(B, na, no, ny, nx).permute(0, 1, 3, 4, 2)        # [B, na, ny, nx, no]
    yv, xv = torch.meshgrid(torch.arange(ny, device=x.device, dtype=torch.float64),
                            torch.arange(nx, device=x.device, dtype=torch.float64), indexing="ij")
    grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2) - 0.5
    anchor_grid = anchors.view(1, na, 1, 1, 2)
    xy, wh, conf = p.sigmoid().split((2, 2, nc + 1), 4)
    xy = (xy * 2 + grid) * stride
    wh = (wh * 2) ** 2 * anchor_grid
    y = torch.cat((xy, wh, conf), 4).view(B, na * ny * nx, no)
    return {"y": y.to(x.dtype).reshape(-1)}


# -------------------------------------------------------------------------------------------------- reductions

def spatial_soft_argmax2d(heatmaps, temperature, P, H, W, **_):
    # kornia spatial_soft_argmax2d(normalized_coordinates=True): softmax over each plane, expected (x, y)
    prob = torch.softmax(_f64(heatmaps).view(P, H * W) * temperature, dim=-1).view(P, H, W)
    xs = torch.linspace(-1.0, 1.0, W, dtype=torch.float64, device=heatmaps.device)
    ys = torch.linspace(-1.0, 1.0, H, dtype=torch.float64, device=heatmaps.device)
    ex = (prob.sum(1) * xs).sum(-1)
    ey = (prob.sum(2) * ys).sum(-1)
    return {"coords": torch.stack((ex, ey), -1).to(heatmaps.dtype).reshape(-1)}


def amax_abs(x, amax, n, **_):
    # running amax of FP8 delayed scaling: max(old amax, max |x|)
    return {"amax": torch.maximum(amax, torch.amax(x.abs()).reshape(1))}


def col_minmax(x, rows, cols, **_):
    mins, maxs = torch.aminmax(x.view(rows, cols), dim=0)
    return {"mins": mins, "maxs": maxs}


# ---------------------------------------------------------------------------------------------------- products

def mahalanobis_sq(x, mu, P, N, D=64, **_):
    d = _f64(x).view(N, D) - _f64(mu)
    return {"dist": ((d @ _f64(P).view(D, D)) * d).sum(-1).to(x.dtype)}


def matmul_kernel(a_ptr, b_ptr, M, N, K, **_):
    # Triton tutorial: leaky_relu(a @ b) with fp32 accumulation, stored as fp16
    a, b = a_ptr, b_ptr
    if a.dtype != torch.float16:                                      # fp16 arrays handed over as bit patterns
        a, b = a.view(torch.float16), b.view(torch.float16)
    c = _f64(a).view(M, K) @ _f64(b).view(K, N)
    return {"c_ptr": F.leaky_relu(c, 0.01).to(torch.float16).reshape(-1)}


# ---------------------------------------------------------------------------------------------- stencil / pool

def unsharp_mask3x3(img, P, H, W, **_):
    # kornia unsharp_mask((3, 3), (1.5, 1.5), border_type="reflect"): x + (x - gaussian_blur2d(x))
    sigma = 1.5
    d = torch.arange(-1, 2, dtype=torch.float64, device=img.device)
    g = torch.exp(-(d ** 2) / (2 * sigma ** 2))
    g = g / g.sum()
    k = torch.outer(g, g).view(1, 1, 3, 3)
    x = _f64(img).view(P, 1, H, W)
    blur = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), k)
    return {"out": (x + (x - blur)).to(img.dtype).reshape(-1)}


def heatmap_nms(heat, P, H, W, **_):
    # CenterNet _nms(heat, kernel=3)
    h = heat.view(1, P, H, W)
    hmax = F.max_pool2d(h, 3, stride=1, padding=1)
    keep = (hmax == h).float()
    return {"out": (h * keep).reshape(-1)}


# ------------------------------------------------------------------------------------------------------- other

def viterbi_step(score, trans, emit, mask, B, T, **_):
    # AllenNLP viterbi_decode step (max over the previous tag, then the emission), pytorch-crf's mask
    summed = score.view(B, T, 1) + trans.view(1, T, T)                 # [B, prev, next], float32 as the kernel
    best = summed.amax(dim=1)
    idx = summed.argmax(dim=1)                                         # the first maximum on ties
    nxt = torch.where(mask.view(B, 1).bool(), best + emit.view(B, T), score.view(B, T))
    return {"next_score": nxt.reshape(-1), "backpointer": idx.to(torch.int64).reshape(-1)}


PEERS = {
    "bucketize_kernel": (bucketize_kernel, ["out"]),
    "stft_frames": (stft_frames, ["frames"]),
    "polar": (polar, ["mag", "phase"]),
    "yolo_detect_decode": (yolo_detect_decode, ["y"]),
    "spatial_soft_argmax2d": (spatial_soft_argmax2d, ["coords"]),
    "amax_abs": (amax_abs, ["amax"]),
    "col_minmax": (col_minmax, ["mins", "maxs"]),
    "mahalanobis_sq": (mahalanobis_sq, ["dist"]),
    "matmul_kernel": (matmul_kernel, ["c_ptr"]),
    "unsharp_mask3x3": (unsharp_mask3x3, ["out"]),
    "heatmap_nms": (heatmap_nms, ["out"]),
    "viterbi_step": (viterbi_step, ["next_score", "backpointer"]),
}

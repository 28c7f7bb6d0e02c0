"""Independent PyTorch implementations of the ninth held-out set of naive kernels (tests/heldout16/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation (mostly as the model or KernelBench code the kernel was
ported from would), not as translations of the kernels. Sizes are Python ints, float scalars Python floats. The fp32
kernels compute in full fp32: the convolution peers turn cuDNN's TF32 off for their call, and torch's fp32 matmuls
default to full fp32. w8a16_gemv's peer dequantizes to fp32 and casts the result to half; selu_bf16's runs
torch.selu on the bfloat16 tensor (fp32 math inside, bf16 result). sgemm_cm's peer reads the column-major buffers as
transposed row-major views (a column-major rows x cols matrix with leading dimension ld is a row-major cols x ld
tensor, transposed) and calls torch.addmm."""

from __future__ import annotations

import math
from contextlib import contextmanager

import torch
import torch.nn.functional as F


@contextmanager
def _full_fp32_cudnn():
    saved = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = saved


# ------------------------------------------------------------------------------------------------ element-wise maps

def selu_bf16(x, **_):
    return {"y": torch.selu(x)}


def timestep_embedding(timesteps, max_period, B, dim, **_):
    # guided-diffusion's timestep_embedding
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32,
                                                           device=timesteps.device) / half)
    args = timesteps[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    return {"out": embedding.reshape(-1)}


def conj_transpose(A, M, N, **_):
    z = torch.view_as_complex(A.view(M, N, 2))
    zh = z.mH.resolve_conj().contiguous()                  # (N, M), conjugation materialized
    return {"AH": torch.view_as_real(zh).reshape(-1)}


# ------------------------------------------------------------------------------------------------------ reductions

def triplet_margin_loss(anchor, positive, negative, loss, margin, eps, B, D, **_):
    l = F.triplet_margin_loss(anchor.view(B, D), positive.view(B, D), negative.view(B, D),
                              margin=margin, p=2, eps=eps, swap=False, reduction="mean")
    return {"loss": loss + l}


def bincount_weighted(idx, w, hist, nbins, **_):
    counts = torch.bincount(idx.long(), weights=w, minlength=nbins)
    return {"hist": hist + counts.to(hist.dtype)}


def embedding_bag_mean(input, weight, V, D, B, L, **_):
    bag = torch.nn.EmbeddingBag.from_pretrained(weight.view(V, D), mode="mean")
    return {"out": bag(input.view(B, L)).reshape(-1)}


# -------------------------------------------------------------------------------------------- row ops and scans

def rmsnorm_channels(x, eps, B, C, H, W, **_):
    x = x.view(B, C, H, W)
    rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + eps)
    return {"out": (x / rms).reshape(-1)}


def masked_cumsum(x, mask, B, L, **_):
    return {"out": torch.cumsum(x.view(B, L) * mask.view(B, L), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------------------ products and contractions

def sgemm_cm(A, B, C, alpha, beta, M, N, K, lda, **_):
    a = A.view(K, lda)[:, :M].t()         # M x K, column-major with leading dimension lda
    b = B.view(N, K).t()                  # K x N, ldb = K
    c = C.view(N, M).t()                  # M x N, ldc = M
    out = torch.addmm(c, a, b, beta=beta, alpha=alpha)
    return {"C": out.t().reshape(-1)}     # back to column-major


def tril_matmul(A, B, N, **_):
    # KernelBench's inputs are lower triangular; the kernel reads only the lower triangles
    a = torch.tril(A.view(N, N))
    b = torch.tril(B.view(N, N))
    return {"C": torch.tril(torch.matmul(a, b)).reshape(-1)}


def w8a16_gemv(W, x, scale, M, K, **_):
    y = F.linear(x.float()[None, :], W.view(M, K).float())[0] * scale
    return {"y": y.half()}


# ------------------------------------------------------------------------------ convolutions, pooling and stencils

def conv2d_3x3_s2(x, w, bias, N, Cin, Cout, H, W, **_):
    with _full_fp32_cudnn():
        y = F.conv2d(x.view(N, Cin, H, W), w.view(Cout, Cin, 3, 3), bias, stride=2, padding=1)
    return {"y": y.reshape(-1)}


def depthwise_conv3x3_nhwc_relu6(x, wt, bias, N, H, W, C, **_):
    x_nchw = x.view(N, H, W, C).permute(0, 3, 1, 2)             # channels_last strides
    weight = wt.view(3, 3, C).permute(2, 0, 1).unsqueeze(1)      # HWC filter -> (C, 1, 3, 3)
    with _full_fp32_cudnn():
        y = F.relu6(F.conv2d(x_nchw, weight, bias, stride=1, padding=1, groups=C))
    return {"out": y.permute(0, 2, 3, 1).reshape(-1)}


def maxpool1d_dilated(x, N, C, L, **_):
    pool = torch.nn.MaxPool1d(kernel_size=4, stride=2, padding=2, dilation=3)
    return {"out": pool(x.view(N, C, L)).reshape(-1)}


def adaptive_avg_pool2d_7x7(x, P, H, W, **_):
    return {"out": F.adaptive_avg_pool2d(x.view(P, H, W), (7, 7)).reshape(-1)}


def wave2d_step(u_prev, u, c2, nx, ny, **_):
    u = u.view(ny, nx)
    u_prev = u_prev.view(ny, nx)
    u_next = torch.zeros_like(u)
    lap = u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1] - 4 * u[1:-1, 1:-1]
    u_next[1:-1, 1:-1] = 2 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1] + c2 * lap
    return {"u_next": u_next.reshape(-1)}


PEERS = {
    "selu_bf16": (selu_bf16, ["y"]),
    "timestep_embedding": (timestep_embedding, ["out"]),
    "conj_transpose": (conj_transpose, ["AH"]),
    "triplet_margin_loss": (triplet_margin_loss, ["loss"]),
    "bincount_weighted": (bincount_weighted, ["hist"]),
    "embedding_bag_mean": (embedding_bag_mean, ["out"]),
    "rmsnorm_channels": (rmsnorm_channels, ["out"]),
    "masked_cumsum": (masked_cumsum, ["out"]),
    "sgemm_cm": (sgemm_cm, ["C"]),
    "tril_matmul": (tril_matmul, ["C"]),
    "w8a16_gemv": (w8a16_gemv, ["y"]),
    "conv2d_3x3_s2": (conv2d_3x3_s2, ["y"]),
    "depthwise_conv3x3_nhwc_relu6": (depthwise_conv3x3_nhwc_relu6, ["out"]),
    "maxpool1d_dilated": (maxpool1d_dilated, ["out"]),
    "adaptive_avg_pool2d_7x7": (adaptive_avg_pool2d_7x7, ["out"]),
    "wave2d_step": (wave2d_step, ["u_next"]),
}

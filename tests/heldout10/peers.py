"""Independent PyTorch implementations of the third held-out set of naive kernels (tests/heldout10/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation, not as translations of the kernels. The convolution peers
turn cuDNN's TF32 off for their call (the kernels compute in full fp32)."""

from __future__ import annotations

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

def bias_relu_nchw(x, bias, N, C, HW, **_):
    return {"y": F.relu(x.view(N, C, HW) + bias.view(1, C, 1)).reshape(-1)}


def clamp_int16(x, lo, hi, **_):
    return {"y": torch.clamp(x, min=lo, max=hi)}


def sger(x, y, A, alpha, m, n, **_):
    return {"A": torch.addr(A.view(m, n), x, y, alpha=alpha).reshape(-1)}


def embedding_lookup(ids, table, vocab, dim, **_):
    return {"out": F.embedding(ids, table.view(vocab, dim)).reshape(-1)}


# ------------------------------------------------------------------------------------------------------ reductions

def sum_dim0(x, B, M, N, **_):
    return {"out": x.view(B, M, N).sum(dim=0).reshape(-1)}


def min_argmin_dim1(x, B, C, P, **_):
    vals, idx = torch.min(x.view(B, C, P), dim=1)
    return {"vals": vals.reshape(-1), "idx": idx.reshape(-1)}


def group_norm_fwd(x, gamma, beta, eps, N, C, G, HW, **_):
    # by hand rather than F.group_norm, which refuses a group of one element (the check size N=1 C=1 G=1 HW=1)
    xg = x.view(N, G, (C // G) * HW)
    var, mean = torch.var_mean(xg, dim=2, correction=0, keepdim=True)
    xhat = ((xg - mean) * torch.rsqrt(var + eps)).view(N, C, HW)
    return {"y": (xhat * gamma.view(1, C, 1) + beta.view(1, C, 1)).reshape(-1)}


# ----------------------------------------------------------------------------------------------------------- scans

def reverse_cumsum(x, rows, cols, **_):
    return {"y": x.view(rows, cols).flip(1).cumsum(dim=1).flip(1).reshape(-1)}


def exclusive_offsets(counts, rows, cols, **_):
    c = counts.view(rows, cols).long()
    return {"offsets": (c.cumsum(dim=1) - c).to(counts.dtype).reshape(-1)}


# ------------------------------------------------------------------------------------------ matmuls and matvecs

def dgemm_nt(A, B, M, N, K, **_):
    return {"C": (A.view(M, K) @ B.view(N, K).T).reshape(-1)}


def batched_gemv(A, x, batch, M, K, **_):
    return {"y": torch.bmm(A.view(batch, M, K), x.view(batch, K, 1)).reshape(-1)}


# ---------------------------------------------------------------------------------- stencils and convolutions

def heat3d_7pt(u, alpha, nx, ny, nz, **_):
    U = u.view(nz, ny, nx)
    out = U.clone()
    c = U[1:-1, 1:-1, 1:-1]
    lap = (U[:-2, 1:-1, 1:-1] + U[2:, 1:-1, 1:-1] + U[1:-1, :-2, 1:-1] + U[1:-1, 2:, 1:-1]
           + U[1:-1, 1:-1, :-2] + U[1:-1, 1:-1, 2:] - 6 * c)
    out[1:-1, 1:-1, 1:-1] = c + alpha * lap
    return {"u_new": out.reshape(-1)}


def depthwise_conv5x5(x, w, N, C, H, W, **_):
    with _full_fp32_cudnn():
        y = F.conv2d(x.view(N, C, H, W), w.view(C, 1, 5, 5), padding=2, groups=C)
    return {"y": y.reshape(-1)}


def conv1d_s2d2(x, w, rows, L, K, **_):
    with _full_fp32_cudnn():
        out = F.conv1d(x.view(rows, 1, L), w.view(1, 1, K), stride=2, dilation=2)
    return {"out": out.reshape(-1)}


# -------------------------------------------------------------------------------------------- pooling, histograms

def avgpool3d(x, P, D, H, W, **_):
    return {"out": F.avg_pool3d(x.view(P, 1, D, H, W), kernel_size=2).reshape(-1)}


def histogram_mod(vals, bins, **_):
    counts = torch.bincount(torch.remainder(vals, 100).long(), minlength=100)
    return {"bins": (bins.long() + counts).to(bins.dtype)}


PEERS = {
    "bias_relu_nchw": (bias_relu_nchw, ["y"]),
    "clamp_int16": (clamp_int16, ["y"]),
    "sger": (sger, ["A"]),
    "embedding_lookup": (embedding_lookup, ["out"]),
    "sum_dim0": (sum_dim0, ["out"]),
    "min_argmin_dim1": (min_argmin_dim1, ["vals", "idx"]),
    "group_norm_fwd": (group_norm_fwd, ["y"]),
    "reverse_cumsum": (reverse_cumsum, ["y"]),
    "exclusive_offsets": (exclusive_offsets, ["offsets"]),
    "dgemm_nt": (dgemm_nt, ["C"]),
    "batched_gemv": (batched_gemv, ["y"]),
    "heat3d_7pt": (heat3d_7pt, ["u_new"]),
    "depthwise_conv5x5": (depthwise_conv5x5, ["y"]),
    "conv1d_s2d2": (conv1d_s2d2, ["out"]),
    "avgpool3d": (avgpool3d, ["out"]),
    "histogram_mod": (histogram_mod, ["bins"]),
}

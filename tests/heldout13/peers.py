"""Independent PyTorch implementations of the sixth held-out set of naive kernels (tests/heldout13/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation, not as translations of the kernels. Sizes are Python ints,
float scalars Python floats. The kernels compute in full fp32 (mish_half_to_float reads halves and computes and
writes fp32): the convolution peer turns cuDNN's TF32 off for its call, and torch's fp32 matmuls (the contraction and
the triangular matvec) default to full fp32. transpose_i8's input is named `in`, a Python keyword, so its peer reads
it from **kwargs."""

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

def mish_half_to_float(x, **_):
    return {"y": F.mish(x.float())}


def where_select(cond, a, b, **_):
    return {"out": torch.where(cond.bool(), a, b)}


def hardsigmoid_bytepitch(x, rows, cols, pitch, **_):
    padded = x.view(rows, pitch // 4)                 # pitch is in bytes, 4 bytes a float
    return {"out": F.hardsigmoid(padded[:, :cols]).reshape(-1)}


def one_hot(labels, N, C, **_):
    return {"out": F.one_hot(labels.long(), num_classes=C).to(torch.float32).reshape(-1)}


# ------------------------------------------------------------------------------------------------------ reductions

def prod_dim1(x, B, M, N, **_):
    return {"out": x.view(B, M, N).prod(dim=1).reshape(-1)}


def row_var(x, rows, cols, **_):
    return {"var": torch.var(x.view(rows, cols), dim=1, correction=0)}


def multi_margin_loss(x, target, loss, margin, N, C, **_):
    return {"loss": loss + F.multi_margin_loss(x.view(N, C), target.long(), p=1, margin=margin, reduction="mean")}


def histc_range(x, hist, lo, hi, **_):
    counts = torch.histc(x, bins=64, min=lo, max=hi)
    return {"hist": (hist.long() + counts.long()).to(hist.dtype)}


# --------------------------------------------------------------------------------------------------- normalization

def l2_normalize_cols(x, rows, cols, **_):
    return {"y": F.normalize(x.view(rows, cols), p=2.0, dim=0, eps=1e-12).reshape(-1)}


# ----------------------------------------------------------------------------------------------------------- scans

def col_cumsum(x, rows, cols, **_):
    return {"y": torch.cumsum(x.view(rows, cols), dim=0).reshape(-1)}


def logcumsumexp_rows(x, rows, cols, **_):
    return {"y": torch.logcumsumexp(x.view(rows, cols), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------------------ matmuls and matvecs

def tril_matvec(L, x, n, **_):
    return {"y": torch.mv(torch.tril(L.view(n, n)), x)}


def contract_bmn_ml(X, W, B, M, N, L, **_):
    return {"Y": torch.einsum("bmn,ml->bnl", X.view(B, M, N), W.view(M, L)).reshape(-1)}


# ---------------------------------------------------------------------------------- pooling and convolutions

def avgpool5x5_s1(x, P, H, W, **_):
    y = F.avg_pool2d(x.view(1, P, H, W), kernel_size=5, stride=1, padding=2, count_include_pad=False)
    return {"out": y.reshape(-1)}


def conv1d_multi_out(x, w, bias, Cin, Cout, L, **_):
    with _full_fp32_cudnn():
        y = F.conv1d(x.view(1, Cin, L), w.view(Cout, Cin, 5), bias, stride=1, padding=2)
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------------------ transposes

def transpose_i8(rows, cols, **kwargs):
    return {"out": kwargs["in"].view(rows, cols).t().contiguous().reshape(-1)}


PEERS = {
    "mish_half_to_float": (mish_half_to_float, ["y"]),
    "where_select": (where_select, ["out"]),
    "hardsigmoid_bytepitch": (hardsigmoid_bytepitch, ["out"]),
    "one_hot": (one_hot, ["out"]),
    "prod_dim1": (prod_dim1, ["out"]),
    "row_var": (row_var, ["var"]),
    "multi_margin_loss": (multi_margin_loss, ["loss"]),
    "histc_range": (histc_range, ["hist"]),
    "l2_normalize_cols": (l2_normalize_cols, ["y"]),
    "col_cumsum": (col_cumsum, ["y"]),
    "logcumsumexp_rows": (logcumsumexp_rows, ["y"]),
    "tril_matvec": (tril_matvec, ["y"]),
    "contract_bmn_ml": (contract_bmn_ml, ["Y"]),
    "avgpool5x5_s1": (avgpool5x5_s1, ["out"]),
    "conv1d_multi_out": (conv1d_multi_out, ["y"]),
    "transpose_i8": (transpose_i8, ["out"]),
}

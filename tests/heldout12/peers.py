"""Independent PyTorch implementations of the fifth held-out set of naive kernels (tests/heldout12/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation, not as translations of the kernels. Sizes and integer
scalars (ipow's exponent e) are Python ints, float scalars Python floats. The kernels compute in full fp32."""

from __future__ import annotations

import torch
import torch.nn.functional as F


# ------------------------------------------------------------------------------------------------ element-wise maps

def relu6(x, alpha, **_):
    return {"y": F.relu6(alpha * x)}


def silu(x, **_):
    return {"y": F.silu(x)}


def ipow(x, e, **_):
    return {"y": torch.pow(x, int(e))}


def add_row_broadcast(A, v, rows, cols, **_):
    return {"out": (A.view(rows, cols) + v.view(1, cols)).reshape(-1)}


def outer_sum(a, b, m, n, **_):
    return {"C": (a.view(m, 1) + b.view(1, n)).reshape(-1)}


def cos_angle_3d(ax, ay, az, bx, by, bz, **_):
    a = torch.stack([ax, ay, az], dim=1)
    b = torch.stack([bx, by, bz], dim=1)
    return {"cosang": F.cosine_similarity(a, b, dim=1, eps=1e-8)}


def normalize3d_soa(x, y, z, **_):
    v = F.normalize(torch.stack([x, y, z], dim=1), p=2.0, dim=1, eps=1e-12)
    return {"x": v[:, 0].contiguous(), "y": v[:, 1].contiguous(), "z": v[:, 2].contiguous()}


# ------------------------------------------------------------------------------------------------------ reductions

def row_range(x, rows, cols, **_):
    lo, hi = torch.aminmax(x.view(rows, cols), dim=1)
    return {"out": hi - lo}


def col_mean(x, rows, cols, **_):
    return {"mean": x.view(rows, cols).mean(dim=0)}


def count_above_rows(x, thresh, rows, cols, **_):
    return {"cnt": (x.view(rows, cols) > thresh).sum(dim=1).to(torch.int32)}


def first_above_rows(x, thresh, rows, cols, **_):
    hit = x.view(rows, cols) > thresh
    first = hit.to(torch.int32).argmax(dim=1)            # index of the first True (0 when there is none)
    none = torch.full_like(first, cols)
    return {"pos": torch.where(hit.any(dim=1), first, none).to(torch.int32)}


def sad_rows(a, b, rows, cols, **_):
    return {"sad": torch.linalg.vector_norm(a.view(rows, cols) - b.view(rows, cols), ord=1, dim=1)}


# ----------------------------------------------------------------------------------------------------------- scans

def cummax_rows(x, rows, cols, **_):
    return {"y": torch.cummax(x.view(rows, cols), dim=1).values.reshape(-1)}


# -------------------------------------------------------------------------------------------------------- stencils

def laplacian5(x, H, W, **_):
    p = F.pad(x.view(1, 1, H, W), (1, 1, 1, 1), mode="replicate")[0, 0]
    centre = p[1:-1, 1:-1]
    lap = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4.0 * centre
    return {"out": lap.reshape(-1)}


def moving_avg7(x, n, **_):
    y = F.avg_pool1d(x.view(1, 1, n), kernel_size=7, stride=1, padding=3, count_include_pad=True)
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------------------ transposes

def transpose_last2(x, B, M, N, **_):
    return {"y": x.view(B, M, N).transpose(1, 2).contiguous().reshape(-1)}


PEERS = {
    "relu6": (relu6, ["y"]),
    "silu": (silu, ["y"]),
    "ipow": (ipow, ["y"]),
    "add_row_broadcast": (add_row_broadcast, ["out"]),
    "outer_sum": (outer_sum, ["C"]),
    "cos_angle_3d": (cos_angle_3d, ["cosang"]),
    "normalize3d_soa": (normalize3d_soa, ["x", "y", "z"]),
    "row_range": (row_range, ["out"]),
    "col_mean": (col_mean, ["mean"]),
    "count_above_rows": (count_above_rows, ["cnt"]),
    "first_above_rows": (first_above_rows, ["pos"]),
    "sad_rows": (sad_rows, ["sad"]),
    "cummax_rows": (cummax_rows, ["y"]),
    "laplacian5": (laplacian5, ["out"]),
    "moving_avg7": (moving_avg7, ["y"]),
    "transpose_last2": (transpose_last2, ["y"]),
}

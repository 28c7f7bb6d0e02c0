"""Independent PyTorch implementations of the second held-out set (tests/heldout2/*.cu), in the form of
tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat tensor}
with each out / inout array's length and dtype (an inout array comes with its value before the launch)."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def hardswish_pitched(x, rows, cols, pitch, **_):
    padded = torch.zeros(rows, pitch, dtype=x.dtype, device=x.device)
    padded[:, :cols] = F.hardswish(x.view(rows, pitch)[:, :cols])
    return {"out": padded.reshape(-1)}


def row_argmax(logits, batch, vocab, **_):
    return {"idx": logits.view(batch, vocab).argmax(dim=1).to(torch.int32)}


def col_l1norm(a, m, n, **_):
    return {"norm": a.view(m, n).abs().sum(dim=0)}


def max_over_channels(x, B, C, P, **_):
    return {"y": x.view(B, C, P).amax(dim=1).reshape(-1)}


def softmax_cols(s, n, d, **_):
    return {"p": torch.softmax(s.view(n, d), dim=0).reshape(-1)}


def layernorm_welford(x, gamma, beta, eps, rows, cols, **_):
    return {"y": F.layer_norm(x.view(rows, cols), (cols,), gamma, beta, eps).reshape(-1)}


def batched_transpose(batch, rows, cols, **kwargs):
    return {"out": kwargs["in"].view(batch, rows, cols).transpose(1, 2).reshape(-1)}


def gemv_t(A, x, K, N, **_):
    return {"y": A.view(K, N).T @ x}


def mm_tn(A, B, M, N, K, **_):
    return {"C": (A.view(K, M).T @ B.view(K, N)).reshape(-1)}


def box5(x, **_):
    summed = F.conv1d(x.view(1, 1, -1), torch.ones(1, 1, 5, dtype=x.dtype, device=x.device), padding=2)
    return {"y": summed.reshape(-1) * 0.2}


def sum_squares(x, total, mu, **_):
    return {"total": total + (x - mu).square().sum()}


def row_cummax(x, rows, cols, **_):
    return {"y": torch.cummax(x.view(rows, cols), dim=1).values.reshape(-1)}


PEERS = {
    "hardswish_pitched": (hardswish_pitched, ["out"]),
    "row_argmax": (row_argmax, ["idx"]),
    "col_l1norm": (col_l1norm, ["norm"]),
    "max_over_channels": (max_over_channels, ["y"]),
    "softmax_cols": (softmax_cols, ["p"]),
    "layernorm_welford": (layernorm_welford, ["y"]),
    "batched_transpose": (batched_transpose, ["out"]),
    "gemv_t": (gemv_t, ["y"]),
    "mm_tn": (mm_tn, ["C"]),
    "box5": (box5, ["y"]),
    "sum_squares": (sum_squares, ["total"]),
    "row_cummax": (row_cummax, ["y"]),
}

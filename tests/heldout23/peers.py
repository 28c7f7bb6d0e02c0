"""Independent PyTorch implementations of the sixteenth held-out set of naive kernels (tests/heldout23/*.cu), in the
form of tests/heldout22/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch code computes each operator, not as translations of the kernels: torch.softmax,
F.layer_norm, Hugging Face's LlamaRMSNorm forward on float16, F.normalize(p=2), Tensor.mean / torch.argmax /
torch.amax along a dimension, F.cross_entropy(reduction="none"), Tensor.t().contiguous(), torch.matmul,
F.conv1d(padding=3) and torch.bincount. Sizes are Python ints, float scalars Python floats; float16 arrays come as
torch.float16 tensors, the int64 targets as torch.int64, the uint8 image as torch.uint8 and the int histogram as
torch.int32. torch.matmul and F.conv1d run with TF32 turned off (restored afterwards), since the kernels compute in
full fp32 and TF32 would miss their tolerances."""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F


@contextlib.contextmanager
def _full_fp32():
    matmul, cudnn = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32 = matmul
        torch.backends.cudnn.allow_tf32 = cudnn


# ------------------------------------------------------------------------------------------------- row-wise ops

def softmax_rows_warp(x, rows, D, **_):
    return {"y": torch.softmax(x.view(rows, D), dim=-1).reshape(-1)}


def layer_norm_rows(x, weight, bias, eps, rows, D, **_):
    return {"y": F.layer_norm(x.view(rows, D), (D,), weight, bias, eps).reshape(-1)}


def rms_norm_half(x, weight, eps, rows, D, **_):
    # transformers.models.llama.modeling_llama.LlamaRMSNorm.forward
    hidden_states = x.view(rows, D)
    input_dtype = hidden_states.dtype
    hidden_states = hidden_states.to(torch.float32)
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + eps)
    y = weight * hidden_states.to(input_dtype)
    return {"y": y.reshape(-1)}


def l2_normalize_interleaved(x, rows, D, **_):
    # KernelBench level 1, L2Norm (with F.normalize's eps clamp)
    return {"y": F.normalize(x.view(rows, D), p=2.0, dim=1).reshape(-1)}


def mean_rows_serial(x, rows, D, **_):
    # KernelBench level 1, Mean reduction over a dimension (the last one)
    return {"out": torch.mean(x.view(rows, D), dim=-1)}


def argmax_rows(x, rows, D, **_):
    # KernelBench level 1, Argmax over a dimension; int64 indices, the first maximum
    return {"out": torch.argmax(x.view(rows, D), dim=1)}


def cross_entropy_rows(logits, targets, rows, V, **_):
    return {"loss": F.cross_entropy(logits.view(rows, V), targets, reduction="none")}


def amax_dim1(x, B, D1, D2, **_):
    # KernelBench level 1, Max reduction over a dimension (dim=1 of [B, D1, D2])
    return {"out": torch.amax(x.view(B, D1, D2), dim=1).reshape(-1)}


# -------------------------------------------------------------------------------------- tiled, stencil, histogram

def transpose_tiled(x, rows, cols, **_):
    return {"y": x.view(rows, cols).t().contiguous().reshape(-1)}


def matmul_tiled16(A, B, M, K, N, **_):
    # KernelBench level 1, standard matrix multiplication
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(K, N))
    return {"C": C.reshape(-1)}


def conv1d_halo(x, w, B, L, **_):
    with _full_fp32():
        y = F.conv1d(x.view(B, 1, L), w.view(1, 1, 7), padding=3)
    return {"y": y.reshape(-1)}


def histogram_u8(x, hist, **_):
    counts = torch.bincount(x.to(torch.int64), minlength=256)
    return {"hist": (hist.to(torch.int64) + counts).to(torch.int32)}


PEERS = {
    "softmax_rows_warp": (softmax_rows_warp, ["y"]),
    "layer_norm_rows": (layer_norm_rows, ["y"]),
    "rms_norm_half": (rms_norm_half, ["y"]),
    "l2_normalize_interleaved": (l2_normalize_interleaved, ["y"]),
    "mean_rows_serial": (mean_rows_serial, ["out"]),
    "argmax_rows": (argmax_rows, ["out"]),
    "cross_entropy_rows": (cross_entropy_rows, ["loss"]),
    "amax_dim1": (amax_dim1, ["out"]),
    "transpose_tiled": (transpose_tiled, ["y"]),
    "matmul_tiled16": (matmul_tiled16, ["C"]),
    "conv1d_halo": (conv1d_halo, ["y"]),
    "histogram_u8": (histogram_u8, ["hist"]),
}

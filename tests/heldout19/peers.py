"""Independent PyTorch implementations of the twelfth held-out set of naive kernels (tests/heldout19/*.cu), in the form
of tests/heldout18/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way the KernelBench level-1 reference models' forward() computes each operator (torch / torch.nn.functional
calls on the reshaped tensors), not as translations of the kernels. Sizes are Python ints, float scalars Python floats.
The fp32 kernels compute in full fp32: every matmul and convolution peer turns TF32 off (cuDNN's and cuBLAS's) for its
call. new_gelu_bf16's peer computes MinGPT's formula in fp32 and rounds once to bfloat16, as the kernel does;
hardtanh_half_kernel's peer clamps the half tensor (exact). batch_norm_train's peer normalizes with the batch
statistics (training=True, no running stats). exclusive_cumsum_kernel's peer is KernelBench's concatenate-zeros-then-
cumsum with the slice taken on dim 1 (the intended exclusive scan). The three losses add their value to the given
accumulator (zeroed by the contract's const(0))."""

from __future__ import annotations

import math
from contextlib import contextmanager

import torch
import torch.nn.functional as F


@contextmanager
def _full_fp32():
    saved = torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = saved


# ---------------------------------------------------------------------------------------------------- matmuls

def tensor3d_matrix_mul(A, B, N, M, K, L, **_):
    with _full_fp32():
        C = torch.matmul(A.view(N, M, K), B.view(K, L))
    return {"C": C.reshape(-1)}


def diag_matmul_kernel(A, B, N, M, **_):
    with _full_fp32():
        C = torch.diag(A) @ B.view(N, M)
    return {"C": C.reshape(-1)}


def matmul_large_k(A, B, M, N, K, **_):
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(K, N))
    return {"C": C.reshape(-1)}


# ------------------------------------------------------------------------------------------------ activations

def softsign_kernel(x, **_):
    return {"out": F.softsign(x)}


def elu_forward(input, alpha, **_):
    return {"output": F.elu(input, alpha=alpha)}


def hardtanh_half_kernel(x, min_val, max_val, **_):
    return {"out": F.hardtanh(x, min_val=min_val, max_val=max_val)}


def new_gelu_bf16(x, **_):
    # MinGPT's NewGELU.forward, in fp32, rounded once to bfloat16
    v = x.float()
    y = 0.5 * v * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * torch.pow(v, 3.0))))
    return {"y": y.to(torch.bfloat16)}


# ------------------------------------------------------------------------------------------------ normalizations

def instance_norm2d(x, eps, batch_size, num_features, dim1, dim2, **_):
    y = F.instance_norm(x.view(batch_size, num_features, dim1, dim2), eps=eps)
    return {"y": y.reshape(-1)}


def batch_norm_train(x, weight, bias, eps, batch_size, num_features, dim1, dim2, **_):
    y = F.batch_norm(x.view(batch_size, num_features, dim1, dim2), None, None, weight, bias, training=True, eps=eps)
    return {"y": y.reshape(-1)}


# ---------------------------------------------------------------------------------------------------- reductions

def argmax_dim1_kernel(x, batch_size, dim1, dim2, **_):
    return {"out": torch.argmax(x.view(batch_size, dim1, dim2), dim=1).reshape(-1)}


def mean_dim2_kernel(x, out, batch_size, dim1, dim2, **_):
    return {"out": out + torch.mean(x.view(batch_size, dim1, dim2), dim=2).reshape(-1)}


# ------------------------------------------------------------------------------------------------------- pooling

def maxpool3d_kernel(x, batch_size, channels, dim1, dim2, dim3, **_):
    y = F.max_pool3d(x.view(batch_size, channels, dim1, dim2, dim3), kernel_size=3, stride=2, padding=1, dilation=3)
    return {"out": y.reshape(-1)}


def avg_pool1d_kernel(x, batch_size, in_channels, input_length, **_):
    y = F.avg_pool1d(x.view(batch_size, in_channels, input_length), kernel_size=4, stride=2, padding=1)
    return {"out": y.reshape(-1)}


# -------------------------------------------------------------------------------------------------- convolutions

def conv_transpose1d_kernel(x, weight, batch_size, in_channels, out_channels, length, **_):
    with _full_fp32():
        y = F.conv_transpose1d(x.view(batch_size, in_channels, length), weight.view(in_channels, out_channels, 3),
                               stride=2, padding=1)
    return {"out": y.reshape(-1)}


def conv2d_asym_dilated(input, weight, batch_size, in_channels, out_channels, height, width, **_):
    with _full_fp32():
        y = F.conv2d(input.view(batch_size, in_channels, height, width), weight.view(out_channels, in_channels, 3, 5),
                     stride=1, padding=(1, 2), dilation=(2, 1))
    return {"output": y.reshape(-1)}


# --------------------------------------------------------------------------------------------------------- scans

def exclusive_cumsum_kernel(x, batch_size, dim, **_):
    xs = x.view(batch_size, dim)
    padded = torch.cat((torch.zeros_like(xs.select(1, 0).unsqueeze(1)), xs), dim=1)
    return {"out": torch.cumsum(padded, dim=1)[:, :-1].reshape(-1)}


def cumprod_dim1_kernel(x, batch_size, dim1, dim2, **_):
    return {"out": torch.cumprod(x.view(batch_size, dim1, dim2), dim=1).reshape(-1)}


# -------------------------------------------------------------------------------------------------------- losses

def hinge_loss_kernel(predictions, targets, loss, **_):
    return {"loss": loss + torch.mean(torch.clamp(1 - predictions * targets, min=0))}


def kl_div_batchmean_kernel(predictions, targets, loss, batch_size, dim, **_):
    kl = F.kl_div(torch.log(predictions.view(batch_size, dim)), targets.view(batch_size, dim), reduction="batchmean")
    return {"loss": loss + kl}


def cosine_similarity_loss(predictions, targets, loss, batch_size, dim, **_):
    cos = F.cosine_similarity(predictions.view(batch_size, dim), targets.view(batch_size, dim), dim=1)
    return {"loss": loss + torch.mean(1 - cos)}


PEERS = {
    "tensor3d_matrix_mul": (tensor3d_matrix_mul, ["C"]),
    "diag_matmul_kernel": (diag_matmul_kernel, ["C"]),
    "matmul_large_k": (matmul_large_k, ["C"]),
    "softsign_kernel": (softsign_kernel, ["out"]),
    "elu_forward": (elu_forward, ["output"]),
    "hardtanh_half_kernel": (hardtanh_half_kernel, ["out"]),
    "new_gelu_bf16": (new_gelu_bf16, ["y"]),
    "instance_norm2d": (instance_norm2d, ["y"]),
    "batch_norm_train": (batch_norm_train, ["y"]),
    "argmax_dim1_kernel": (argmax_dim1_kernel, ["out"]),
    "mean_dim2_kernel": (mean_dim2_kernel, ["out"]),
    "maxpool3d_kernel": (maxpool3d_kernel, ["out"]),
    "avg_pool1d_kernel": (avg_pool1d_kernel, ["out"]),
    "conv_transpose1d_kernel": (conv_transpose1d_kernel, ["out"]),
    "conv2d_asym_dilated": (conv2d_asym_dilated, ["output"]),
    "exclusive_cumsum_kernel": (exclusive_cumsum_kernel, ["out"]),
    "cumprod_dim1_kernel": (cumprod_dim1_kernel, ["out"]),
    "hinge_loss_kernel": (hinge_loss_kernel, ["loss"]),
    "kl_div_batchmean_kernel": (kl_div_batchmean_kernel, ["loss"]),
    "cosine_similarity_loss": (cosine_similarity_loss, ["loss"]),
}

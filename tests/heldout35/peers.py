"""Independent PyTorch implementations of the twenty-eighth held-out set of kernels (tests/heldout35/*.cu), in the form
of tests/heldout34/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench reference model or the PyTorch code each kernel ports computes the operator, one PyTorch
call per step, not as translations of the kernels: `torch.tanh(v @ W + b)`, `F.linear` then `F.batch_norm(training=False)`,
KernelBench's Matmul_Subtract_Multiply_ReLU (`F.linear`, `- subtract_value`, `* multiply_value`, `torch.relu`),
`F.relu6(F.conv2d(...))` on the NHWC map permuted to NCHW and back, `torch.einsum("bi,bj->bij")`,
`F.max_pool3d(kernel_size=2, stride=2)`, a length mask from `torch.arange(T) < lengths[:, None]` and a masked sum over
its count, `torch.diagonal(dim1=-2, dim2=-1)` and its `.sum(-1)`, `F.hinge_embedding_loss(x, 2 * labels - 1)`,
`F.logsigmoid`, `F.cosine_embedding_loss(x1, x2, 2 * labels - 1, reduction="none")` and `F.softshrink`. Sizes are
Python ints, float scalars Python floats; arrays are torch.float32 except the int32 lengths of masked_mean_lengths and
the int32 labels of hinge_embedding_loss and cosine_embedding_loss. The peers only call operators on their inputs
(views, permutes, arithmetic with Python numbers), except masked_mean_lengths, whose `torch.arange` is made on the
input's device, so they run on a GPU as on the CPU. Every product and convolution runs with TF32 turned off (restored
afterwards), since the kernels compute in full fp32."""

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


# ------------------------------------------------------------------------------------------ products + epilogues

def matvec_t_bias_tanh(W, v, b, K, N, **_):
    # tanh(v @ W + b), W stored [in][out]
    with _full_fp32():
        h = v.view(1, K) @ W.view(K, N)
    return {"y": torch.tanh(h + b).reshape(-1)}


def gemm_batchnorm_eval(x, W, bias, running_mean, running_var, gamma, beta, eps, M, K, N, **_):
    # nn.Linear(K, N) then nn.BatchNorm1d(N) in eval mode
    with _full_fp32():
        h = F.linear(x.view(M, K), W.view(N, K), bias)
    y = F.batch_norm(h, running_mean, running_var, weight=gamma, bias=beta, training=False, eps=eps)
    return {"y": y.reshape(-1)}


def matmul_subtract_multiply_relu(x, W, bias, subtract_value, multiply_value, batch_size, in_features, out_features,
                                  **_):
    # KernelBench level 2 Matmul_Subtract_Multiply_ReLU: linear, - subtract_value, * multiply_value, relu
    with _full_fp32():
        h = F.linear(x.view(batch_size, in_features), W.view(out_features, in_features), bias)
    h = h - subtract_value
    h = h * multiply_value
    return {"y": torch.relu(h).reshape(-1)}


# -------------------------------------------------------------------------------------------------- convolutions

def conv1x1_relu6_nhwc(x, weight, bias, N, H, W, Cin, Cout, **_):
    # F.relu6(nn.Conv2d(Cin, Cout, 1)(x)) on channels-last data
    xc = x.view(N, H, W, Cin).permute(0, 3, 1, 2)
    with _full_fp32():
        h = F.conv2d(xc, weight.view(Cout, Cin, 1, 1), bias)
    return {"y": F.relu6(h).permute(0, 2, 3, 1).reshape(-1)}


# ------------------------------------------------------------------------------------------------ maps + pooling

def batched_outer(a, c, B, M, N, **_):
    return {"out": torch.einsum("bi,bj->bij", a.view(B, M), c.view(B, N)).reshape(-1)}


def maxpool3d_k2s2(x, N, C, D, H, W, **_):
    return {"y": F.max_pool3d(x.view(N, C, D, H, W), kernel_size=2, stride=2).reshape(-1)}


def logsigmoid_2d(x, rows, cols, **_):
    return {"y": F.logsigmoid(x.view(rows, cols)).reshape(-1)}


def softshrink(x, lambd, n, **_):
    return {"y": F.softshrink(x, lambd=lambd)}


# -------------------------------------------------------------------------------------------------- reductions

def masked_mean_lengths(x, lengths, B, T, D, **_):
    # mean over the valid (unpadded) steps of each sequence
    mask = torch.arange(T, device=x.device).view(1, T) < lengths.view(B, 1)
    m = mask.to(x.dtype)
    s = (x.view(B, T, D) * m.view(B, T, 1)).sum(dim=1)
    return {"y": (s / m.sum(dim=1, keepdim=True)).reshape(-1)}


def diagonal_trace(x, tr, B, N, **_):
    # tr is zero before the launch; the kernel adds the trace into it
    d = torch.diagonal(x.view(B, N, N), dim1=-2, dim2=-1)
    return {"diag": d.reshape(-1), "tr": tr + d.sum(dim=-1)}


def hinge_embedding_loss(x, labels, loss, margin, n, **_):
    # loss is zero before the launch; the kernel adds the mean into it
    return {"loss": loss + F.hinge_embedding_loss(x, 2 * labels - 1, margin=margin).reshape(1)}


def cosine_embedding_loss(x1, x2, labels, margin, N, D, **_):
    y = F.cosine_embedding_loss(x1.view(N, D), x2.view(N, D), 2 * labels - 1, margin=margin, reduction="none")
    return {"loss": y.reshape(-1)}


PEERS = {
    "matvec_t_bias_tanh": (matvec_t_bias_tanh, ["y"]),
    "gemm_batchnorm_eval": (gemm_batchnorm_eval, ["y"]),
    "matmul_subtract_multiply_relu": (matmul_subtract_multiply_relu, ["y"]),
    "conv1x1_relu6_nhwc": (conv1x1_relu6_nhwc, ["y"]),
    "batched_outer": (batched_outer, ["out"]),
    "maxpool3d_k2s2": (maxpool3d_k2s2, ["y"]),
    "logsigmoid_2d": (logsigmoid_2d, ["y"]),
    "softshrink": (softshrink, ["y"]),
    "masked_mean_lengths": (masked_mean_lengths, ["y"]),
    "diagonal_trace": (diagonal_trace, ["diag", "tr"]),
    "hinge_embedding_loss": (hinge_embedding_loss, ["loss"]),
    "cosine_embedding_loss": (cosine_embedding_loss, ["loss"]),
}

"""Independent PyTorch implementations of the held-out kernels (tests/heldout/*.cu).

PEERS[kernel_name] = (fn, outputs) where fn(**arrays_and_scalars_and_sizes) returns a dict {output_name: tensor}
arrays are passed as flat 1-D torch tensors of the contract's element type (as the kernel sees them), sizes as ints,
scalars as Python numbers

Every fn takes the kernel's parameters and the contract's size symbols by name (extra keywords are ignored) and
returns flat tensors with the length and dtype of the kernel's out / inout arrays. An inout array is passed with its
value before the launch (zeros for the atomic accumulators) and returned with its value after it. These are written
the way a PyTorch user would write them, not as translations of the kernels.

Precision: the kernels compute in full fp32, so the peers must too. torch's fp32 matmuls already default to full fp32
(torch.backends.cuda.matmul.allow_tf32 is False), but cuDNN convolutions default to TF32 on Ampere and later, which is
about 3e-4 off at conv2d_3x3's benchmark size: the two convolution peers turn TF32 off for their call.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------- element-wise maps

def bias_gelu_tanh(x, bias, tokens, features, **_):
    y = F.gelu(x.view(tokens, features) + bias, approximate="tanh")
    return {"y": y.reshape(-1)}


def daxpby(x, y, alpha, beta, **_):
    return {"z": alpha * x + beta * y}


def residual_add_fp16(x, res, alpha, **_):
    return {"out": torch.add(x, res, alpha=alpha)}


def swiglu_bf16(xg, tokens, hidden, **_):
    gate, up = xg.view(tokens, 2 * hidden).chunk(2, dim=1)
    return {"out": (F.silu(gate) * up).reshape(-1)}


def clamp_add_int(a, b, lo, hi, **_):
    return {"y": torch.clamp(a + b, min=lo, max=hi)}


def sigmoid_gridstride(x, **_):
    return {"y": torch.sigmoid(x)}


def leaky_relu(x, slope, **_):
    return {"y": F.leaky_relu(x, negative_slope=slope)}


# -------------------------------------------------------------------------------------------------- reductions

def row_l2norm(x, N, dim, **_):
    return {"out": torch.linalg.vector_norm(x.view(N, dim), dim=1)}


def row_mean_i64(data, batch, len, **_):  # noqa: A002 (the kernel's parameter is called len)
    return {"means": data.view(batch, len).mean(dim=1)}


def bn_stats(x, N, C, **_):
    var, mean = torch.var_mean(x.view(N, C), dim=0, correction=0)
    return {"mean": mean, "var": var}


def col_absmax(w, rows, cols, **_):
    return {"scale": w.view(rows, cols).abs().amax(dim=0)}


def sum_middle_axis(x, B, M, N, **_):
    return {"out": x.view(B, M, N).sum(dim=1).reshape(-1)}


def logsumexp_chunked(x, rows, cols, **_):
    return {"out": torch.logsumexp(x.view(rows, cols), dim=1)}


def cosine_sim_rows(a, b, n, d, eps, **_):
    return {"sim": F.cosine_similarity(a.view(n, d), b.view(n, d), dim=1, eps=eps)}


# ------------------------------------------------------------------------------------------ multi-pass row ops

def softmax_rows(x, n_rows, n_cols, **_):
    return {"y": torch.softmax(x.view(n_rows, n_cols), dim=1).reshape(-1)}


def log_softmax_fwd(logits, batch, classes, **_):
    return {"logp": torch.log_softmax(logits.view(batch, classes), dim=1).reshape(-1)}


def layernorm_affine(x, gamma, beta, tokens, hidden, eps, **_):
    out = F.layer_norm(x.view(tokens, hidden), (hidden,), weight=gamma, bias=beta, eps=eps)
    return {"out": out.reshape(-1)}


def rmsnorm_fwd(x, weight, n_tokens, dim, **_):
    y = F.rms_norm(x.view(n_tokens, dim), (dim,), weight=weight, eps=1e-6)
    return {"y": y.reshape(-1)}


def row_cumsum(x, rows, cols, **_):
    return {"out": torch.cumsum(x.view(rows, cols), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------------- transposes, permutations

def transpose_naive(nx, ny, **arrays):
    src = arrays["in"]  # the kernel's parameter is called `in`, a Python keyword
    return {"out": src.view(ny, nx).t().contiguous().reshape(-1)}


def swap_last_two(x, B, M, N, **_):
    return {"out": x.view(B, M, N).transpose(1, 2).contiguous().reshape(-1)}


def permute_abc_to_cab(src, A, B, C, **_):
    return {"dst": src.view(A, B, C).permute(2, 0, 1).contiguous().reshape(-1)}


# --------------------------------------------------------------------------------------- matmuls and matvecs

def sgemm_nn(A, B, C, M, N, K, alpha, beta, **_):
    out = torch.addmm(C.view(M, N), A.view(M, K), B.view(K, N), beta=beta, alpha=alpha)
    return {"C": out.reshape(-1)}


def matmul_tn(A, B, M, N, K, **_):
    return {"C": (A.view(K, M).T @ B.view(K, N)).reshape(-1)}


def bmm_naive(A, B, batch, M, N, K, **_):
    return {"C": torch.bmm(A.view(batch, M, K), B.view(batch, K, N)).reshape(-1)}


def linear_matvec(W, x, b, n_out, n_in, **_):
    return {"y": F.linear(x, W.view(n_out, n_in), b)}


def matvec_transposed(A, x, nrows, ncols, **_):
    return {"y": A.view(nrows, ncols).T @ x}


# ------------------------------------------------------------------------------------ stencils, convolutions

def heat1d_5pt(u, r, **_):
    u_next = u.clone()
    lap = (-u[:-4] + 16 * u[1:-3] - 30 * u[2:-2] + 16 * u[3:-1] - u[4:]) / 12
    u_next[2:-2] = u[2:-2] + r * lap
    return {"u_next": u_next}


def jacobi_sweep(u, f, u_new, h2, h, w, **_):
    U, Fm = u.view(h, w), f.view(h, w)
    out = u_new.clone().view(h, w)
    out[1:-1, 1:-1] = 0.25 * (U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:] - h2 * Fm[1:-1, 1:-1])
    return {"u_new": out.reshape(-1)}


@contextmanager
def _full_fp32_cudnn():
    saved = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = saved


def conv1d_valid(x, w, n, K, **_):
    with _full_fp32_cudnn():
        out = F.conv1d(x.view(1, 1, n), w.view(1, 1, K))
    return {"out": out.reshape(-1)}


def conv2d_3x3(img, wt, C, H, W, **_):
    with _full_fp32_cudnn():
        out = F.conv2d(img.view(1, C, H, W), wt.view(1, C, 3, 3), padding=1)
    return {"out": out.reshape(-1)}


# ----------------------------------------------------------------------------------- histograms and atomics

def byte_histogram(data, hist, **_):
    counts = torch.bincount(data.long(), minlength=256)
    return {"hist": (hist.long() + counts).to(hist.dtype)}


def mse_loss_atomic(pred, target, loss, **_):
    return {"loss": loss + F.mse_loss(pred, target)}


def sumsq_double_atomic(x, acc, **_):
    return {"acc": acc + x.double().square().sum()}


def count_above(x, count, thresh, **_):
    return {"count": count + (x > thresh).sum().to(count.dtype)}


# ------------------------------------------------------------------------------------------------------- pooling

def avgpool2x2_nchw(x, P, H, W, **_):
    return {"out": F.avg_pool2d(x.view(P, 1, H, W), kernel_size=2).reshape(-1)}


def maxpool1d_k3s2(x, rows, L, **_):
    return {"out": F.max_pool1d(x.view(rows, 1, L), kernel_size=3, stride=2).reshape(-1)}


PEERS = {
    "bias_gelu_tanh": (bias_gelu_tanh, ["y"]),
    "daxpby": (daxpby, ["z"]),
    "residual_add_fp16": (residual_add_fp16, ["out"]),
    "swiglu_bf16": (swiglu_bf16, ["out"]),
    "clamp_add_int": (clamp_add_int, ["y"]),
    "sigmoid_gridstride": (sigmoid_gridstride, ["y"]),
    "leaky_relu": (leaky_relu, ["y"]),
    "row_l2norm": (row_l2norm, ["out"]),
    "row_mean_i64": (row_mean_i64, ["means"]),
    "bn_stats": (bn_stats, ["mean", "var"]),
    "col_absmax": (col_absmax, ["scale"]),
    "sum_middle_axis": (sum_middle_axis, ["out"]),
    "logsumexp_chunked": (logsumexp_chunked, ["out"]),
    "cosine_sim_rows": (cosine_sim_rows, ["sim"]),
    "softmax_rows": (softmax_rows, ["y"]),
    "log_softmax_fwd": (log_softmax_fwd, ["logp"]),
    "layernorm_affine": (layernorm_affine, ["out"]),
    "rmsnorm_fwd": (rmsnorm_fwd, ["y"]),
    "row_cumsum": (row_cumsum, ["out"]),
    "transpose_naive": (transpose_naive, ["out"]),
    "swap_last_two": (swap_last_two, ["out"]),
    "permute_abc_to_cab": (permute_abc_to_cab, ["dst"]),
    "sgemm_nn": (sgemm_nn, ["C"]),
    "matmul_tn": (matmul_tn, ["C"]),
    "bmm_naive": (bmm_naive, ["C"]),
    "linear_matvec": (linear_matvec, ["y"]),
    "matvec_transposed": (matvec_transposed, ["y"]),
    "heat1d_5pt": (heat1d_5pt, ["u_next"]),
    "jacobi_sweep": (jacobi_sweep, ["u_new"]),
    "conv1d_valid": (conv1d_valid, ["out"]),
    "conv2d_3x3": (conv2d_3x3, ["out"]),
    "byte_histogram": (byte_histogram, ["hist"]),
    "mse_loss_atomic": (mse_loss_atomic, ["loss"]),
    "sumsq_double_atomic": (sumsq_double_atomic, ["acc"]),
    "count_above": (count_above, ["count"]),
    "avgpool2x2_nchw": (avgpool2x2_nchw, ["out"]),
    "maxpool1d_k3s2": (maxpool1d_k3s2, ["out"]),
}

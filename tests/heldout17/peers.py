"""Independent PyTorch implementations of the tenth held-out set of naive kernels (tests/heldout17/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation (mostly as the model, library or KernelBench code the kernel
was ported from would), not as translations of the kernels. Sizes are Python ints, float scalars Python floats. The
fp32 kernels compute in full fp32: every convolution and matmul peer turns TF32 off (cuDNN's and cuBLAS's) for its
call. lp_pool2d_p2's peer runs F.lp_pool2d on the half tensor (fp32 accumulation inside, half result); top1_correct's
runs argmax on the half logits (the first index among equal maxima, as the kernel keeps). igemm_s8s8s32_nt's peer
multiplies in float64, which is exact for these products (|C| < 2^27), since CUDA has no general int32 matmul and
torch._int_mm rejects the small check shapes. linear_recurrence's peer steps over T in Python, as a reference SSM /
linear-RNN scan does."""

from __future__ import annotations

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


# ------------------------------------------------------------------------------------------------ element-wise maps

def lstm_cell_fwd(gates, cx, B, H, **_):
    # the pointwise tail of nn.LSTMCell: gates = x @ W_ih.T + b_ih + h @ W_hh.T + b_hh, chunked as (i, f, g, o)
    ingate, forgetgate, cellgate, outgate = gates.view(B, 4 * H).chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = forgetgate * cx.view(B, H) + ingate * cellgate
    hy = outgate * torch.tanh(cy)
    return {"hy": hy.reshape(-1), "cy": cy.reshape(-1)}


def horner_eval(x, coef, **_):
    # numpy.polynomial.polynomial.polyval's recurrence, coefficients lowest degree first
    y = torch.zeros_like(x)
    for c in reversed(coef.tolist()):
        y = y * x + c
    return {"y": y}


# ------------------------------------------------------------------------------------------------------ reductions

def bce_logits_rows(logits, targets, pos_weight, N, C, **_):
    loss = F.binary_cross_entropy_with_logits(logits.view(N, C), targets.view(N, C), pos_weight=pos_weight,
                                              reduction="none")
    return {"loss": loss.mean(dim=1)}


def top1_correct(logits, labels, correct, N, C, **_):
    pred = logits.view(N, C).argmax(dim=1)
    n_correct = (pred == labels.long()).sum()
    return {"correct": correct + n_correct.to(correct.dtype)}


def joint_histogram(a, b, hist, **_):
    counts = torch.bincount(a.long() * 256 + b.long(), minlength=256 * 256)
    return {"hist": (hist.long() + counts).to(hist.dtype)}


# -------------------------------------------------------------------------------------------- row ops and scans

def softmax_backward_rows(y, dy, nrows, ncols, **_):
    y = y.view(nrows, ncols)
    dy = dy.view(nrows, ncols)
    dx = y * (dy - (dy * y).sum(dim=1, keepdim=True))
    return {"dx": dx.reshape(-1)}


def linear_recurrence(a, x, B, T, D, **_):
    a = a.view(B, T, D)
    x = x.view(B, T, D)
    h = torch.empty_like(x)
    state = torch.zeros(B, D, dtype=x.dtype, device=x.device)
    for t in range(T):
        state = a[:, t] * state + x[:, t]
        h[:, t] = state
    return {"h": h.reshape(-1)}


# ------------------------------------------------------------------------------------------ products and contractions

def bmm_tn_strided(A, B, batch, M, N, K, **_):
    with _full_fp32():
        c = torch.bmm(A.view(batch, K, M).transpose(1, 2), B.view(batch, K, N))
    return {"C": c.reshape(-1)}


def igemm_s8s8s32_nt(A, B, M, N, K, **_):
    c = A.view(M, K).double() @ B.view(N, K).double().t()
    return {"C": c.round().to(torch.int32).reshape(-1)}


def matmul_swish_scaling(x, weight, bias, scaling_factor, batch, in_features, out_features, **_):
    # KernelBench level 2, 59_Matmul_Swish_Scaling: nn.Linear, then x * sigmoid(x), then * scaling_factor
    with _full_fp32():
        y = F.linear(x.view(batch, in_features), weight.view(out_features, in_features), bias)
    y = y * torch.sigmoid(y)
    y = y * scaling_factor
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------ convolutions, pooling and stencils

def conv1d_grouped(x, w, bias, N, C, G, L, **_):
    with _full_fp32():
        y = F.conv1d(x.view(N, C, L), w.view(C, C // G, 3), bias, stride=1, padding=1, groups=G)
    return {"y": y.reshape(-1)}


def conv2d_nhwc_hwio_same(x, f, N, H, W, Cin, Cout, **_):
    x_nchw = x.view(N, H, W, Cin).permute(0, 3, 1, 2)          # channels_last strides
    weight = f.view(3, 3, Cin, Cout).permute(3, 2, 0, 1)       # HWIO -> OIHW
    with _full_fp32():
        y = F.conv2d(x_nchw, weight, None, stride=1, padding=1)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


def lp_pool2d_p2(x, P, H, W, **_):
    y = F.lp_pool2d(x.view(1, P, H, W), norm_type=2, kernel_size=3, stride=2)
    return {"out": y.reshape(-1)}


def im2col_gpu_kernel(data_im, C, H, W, **_):
    cols = F.unfold(data_im.view(1, C, H, W), kernel_size=3, padding=1, stride=1)   # (1, C*9, H*W)
    return {"data_col": cols.reshape(-1)}


def pixel_shuffle(input, N, C, H, W, r, **_):
    y = F.pixel_shuffle(input.view(N, C * r * r, H, W), r)
    return {"output": y.reshape(-1)}


def sor_red_sweep(u, f, h2, omega, nx, ny, **_):
    u = u.view(ny, nx)
    f = f.view(ny, nx)
    out = u.clone()
    if nx >= 3 and ny >= 3:
        jj = torch.arange(ny, device=u.device)[:, None]
        ii = torch.arange(nx, device=u.device)[None, :]
        red = ((ii + jj) % 2 == 0)[1:-1, 1:-1]
        gs = 0.25 * (u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1] - h2 * f[1:-1, 1:-1])
        relaxed = (1 - omega) * u[1:-1, 1:-1] + omega * gs
        out[1:-1, 1:-1] = torch.where(red, relaxed, u[1:-1, 1:-1])
    return {"u": out.reshape(-1)}


PEERS = {
    "lstm_cell_fwd": (lstm_cell_fwd, ["hy", "cy"]),
    "horner_eval": (horner_eval, ["y"]),
    "bce_logits_rows": (bce_logits_rows, ["loss"]),
    "top1_correct": (top1_correct, ["correct"]),
    "joint_histogram": (joint_histogram, ["hist"]),
    "softmax_backward_rows": (softmax_backward_rows, ["dx"]),
    "linear_recurrence": (linear_recurrence, ["h"]),
    "bmm_tn_strided": (bmm_tn_strided, ["C"]),
    "igemm_s8s8s32_nt": (igemm_s8s8s32_nt, ["C"]),
    "matmul_swish_scaling": (matmul_swish_scaling, ["y"]),
    "conv1d_grouped": (conv1d_grouped, ["y"]),
    "conv2d_nhwc_hwio_same": (conv2d_nhwc_hwio_same, ["y"]),
    "lp_pool2d_p2": (lp_pool2d_p2, ["out"]),
    "im2col_gpu_kernel": (im2col_gpu_kernel, ["data_col"]),
    "pixel_shuffle": (pixel_shuffle, ["output"]),
    "sor_red_sweep": (sor_red_sweep, ["u"]),
}

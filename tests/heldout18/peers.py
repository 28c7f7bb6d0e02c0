"""Independent PyTorch implementations of the eleventh held-out set of naive kernels (tests/heldout18/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation (mostly as the model, library or BLAS-reference code the
kernel was ported from would), not as translations of the kernels. Sizes are Python ints, float scalars Python
floats. The fp32 kernels compute in full fp32: every convolution and matmul peer turns TF32 off (cuDNN's and
cuBLAS's) for its call. rmsnorm_backward_dx's and silu_backward_f64's peers take the gradient with autograd through
the forward formula. rope_interleaved_half's and bias_dropout_add_bf16's peers compute in fp32 and round once to the
16-bit type, as the kernels do. argmax_dim0's peer is torch.argmax (the first index among equal maxima, as the kernel
keeps). min_sqdist_to_centroids' peer uses torch.cdist without the matmul shortcut (no cancellation), squared.
moe_expert_matvec's peer loops over the experts, as a reference MoE layer does. box_blur5x5_u8's peer sums the
window with a float64 convolution (exact for 8-bit sums) and rounds in integers."""

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

def silu_backward_f64(grad_output, self, **_):
    x = self.detach().clone().requires_grad_(True)
    with torch.enable_grad():
        F.silu(x).backward(grad_output)
    return {"grad_input": x.grad}


def bias_dropout_add_bf16(x, bias, residual, mask, scale, N, H, **_):
    # Megatron's bias_dropout_add with the keep-mask given: residual + dropout(x + bias)
    h = x.view(N, H).float() + bias.float()
    out = residual.view(N, H).float() + h * mask.view(N, H).float() * scale
    return {"out": out.to(torch.bfloat16).reshape(-1)}


def rope_interleaved_half(q, cos_cache, sin_cache, T, H, D, **_):
    # GPT-J / rotate_every_two: pairs (2i, 2i+1) rotated by the angle of frequency i at position t
    x = q.view(T, H, D // 2, 2).float()
    x0, x1 = x.unbind(-1)
    cos = cos_cache.view(T, 1, D // 2)
    sin = sin_cache.view(T, 1, D // 2)
    out = torch.stack((x0 * cos - x1 * sin, x1 * cos + x0 * sin), dim=-1)
    return {"out": out.flatten(-2).half().reshape(-1)}


def batchnorm2d_inference(x, running_mean, running_var, weight, bias, eps, N, C, HW, **_):
    y = F.batch_norm(x.view(N, C, HW), running_mean, running_var, weight, bias, training=False, eps=eps)
    return {"y": y.reshape(-1)}


def normalize_nhwc_u8_to_nchw(img, N, H, W, **_):
    # torchvision: ToTensor (HWC uint8 -> CHW float in [0, 1]) then Normalize(ImageNet mean, std)
    x = img.view(N, H, W, 3).permute(0, 3, 1, 2).float().div(255)
    mean = torch.tensor([0.485, 0.456, 0.406], device=x.device).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225], device=x.device).view(1, 3, 1, 1)
    return {"out": ((x - mean) / std).contiguous().reshape(-1)}


# ------------------------------------------------------------------------------------------------------ reductions

def argmax_dim0(a, R, C, **_):
    return {"idx": a.view(R, C).argmax(dim=0)}


def min_sqdist_to_centroids(x, cent, N, K, **_):
    d = torch.cdist(x.view(N, -1), cent.view(K, -1), compute_mode="donot_use_mm_for_euclid_dist")
    return {"dmin": d.pow(2).min(dim=1).values}


def count_nonzero_rows(a, count, R, C, **_):
    nnz = torch.count_nonzero(a.view(R, C), dim=1)
    return {"count": (count.long() + nnz).to(count.dtype)}


def sigmoid_focal_loss_rows(logits, targets, loss, N, C, **_):
    # torchvision.ops.sigmoid_focal_loss(alpha=0.25, gamma=2, reduction="none"), summed over each row
    inputs = logits.view(N, C)
    targets = targets.view(N, C)
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    fl = ce_loss * ((1 - p_t) ** 2)
    alpha_t = 0.25 * targets + (1 - 0.25) * (1 - targets)
    fl = alpha_t * fl
    return {"loss": loss + fl.sum(dim=1)}


# -------------------------------------------------------------------------------------------- row ops and scans

def rmsnorm_backward_dx(dy, x, weight, eps, R, C, **_):
    xr = x.view(R, C).detach().clone().requires_grad_(True)
    with torch.enable_grad():
        y = xr * torch.rsqrt(xr.pow(2).mean(dim=-1, keepdim=True) + eps) * weight
        y.backward(dy.view(R, C))
    return {"dx": xr.grad.reshape(-1)}


def log_softmax_backward_rows(grad_output, output, outer_size, dim_size, **_):
    go = grad_output.view(outer_size, dim_size)
    out = output.view(outer_size, dim_size)
    gi = go - torch.exp(out) * go.sum(dim=1, keepdim=True)
    return {"grad_input": gi.reshape(-1)}


def cumsum_i32_rows(input, rows, cols, **_):
    return {"output": torch.cumsum(input.view(rows, cols), dim=1).reshape(-1)}   # int32 -> int64


# ------------------------------------------------------------------------------------------ products and contractions

def moe_expert_matvec(x, w, expert, T, N, K, E, **_):
    xt = x.view(T, K)
    weights = w.view(E, N, K)
    y = torch.zeros(T, N, dtype=x.dtype, device=x.device)
    with _full_fp32():
        for e in range(E):
            tokens = (expert.long() == e).nonzero(as_tuple=True)[0]
            if tokens.numel():
                y[tokens] = F.linear(xt[tokens], weights[e])
    return {"y": y.reshape(-1)}


def strmv_un_kernel(n, a, lda, x, **_):
    A = a.view(n, lda)[:, :n].t()          # column-major with leading dimension lda: A[i][j] = a[i + j*lda]
    with _full_fp32():
        y = torch.triu(A).mv(x)
    return {"y": y}


def ssyrk_ln(n, k, alpha, A, lda, beta, C, ldc, **_):
    a = A.view(k, lda)[:, :n].t()          # n x k, column-major
    c_cols = C.view(n, ldc)                # row j holds column j of C
    c = c_cols[:, :n].t()                  # c[i][j] = C(i, j)
    with _full_fp32():
        full = alpha * (a @ a.t()) + beta * c
    lower = torch.ones(n, n, dtype=torch.bool, device=C.device).tril()
    out = c_cols.clone()
    out[:, :n] = torch.where(lower, full, c).t()
    return {"C": out.reshape(-1)}


# ------------------------------------------------------------------------------ convolutions, pooling and stencils

def depthwise_conv3d_k3(x, weight, bias, N, C, D, H, W, **_):
    with _full_fp32():
        y = F.conv3d(x.view(N, C, D, H, W), weight.view(C, 1, 3, 3, 3), bias, stride=1, padding=1, groups=C)
    return {"y": y.reshape(-1)}


def avg_pool2d_k3s2p1(x, P, H, W, **_):
    y = F.avg_pool2d(x.view(1, P, H, W), kernel_size=3, stride=2, padding=1, count_include_pad=False)
    return {"y": y.reshape(-1)}


def resize_bilinear_nchw(idata, P, IH, IW, OH, OW, **_):
    y = F.interpolate(idata.view(1, P, IH, IW), size=(OH, OW), mode="bilinear", align_corners=False)
    return {"odata": y.reshape(-1)}


def box_blur5x5_u8(src, H, W, **_):
    img = F.pad(src.view(1, 1, H, W).double(), (2, 2, 2, 2), mode="replicate")
    ones = torch.ones(1, 1, 5, 5, dtype=torch.float64, device=src.device)
    s = F.conv2d(img, ones).round().long()
    return {"dst": ((s + 12) // 25).to(torch.uint8).reshape(-1)}


def stencil9_march_f64(u, c0, c1, c2, nx, ny, **_):
    grid = u.view(ny, nx)
    out = grid.clone()
    if nx >= 3 and ny >= 3:
        k = torch.tensor([[c2, c1, c2], [c1, c0, c1], [c2, c1, c2]], dtype=u.dtype, device=u.device)
        out[1:-1, 1:-1] = F.conv2d(grid[None, None], k[None, None])[0, 0]
    return {"out": out.reshape(-1)}


PEERS = {
    "silu_backward_f64": (silu_backward_f64, ["grad_input"]),
    "bias_dropout_add_bf16": (bias_dropout_add_bf16, ["out"]),
    "rope_interleaved_half": (rope_interleaved_half, ["out"]),
    "batchnorm2d_inference": (batchnorm2d_inference, ["y"]),
    "normalize_nhwc_u8_to_nchw": (normalize_nhwc_u8_to_nchw, ["out"]),
    "argmax_dim0": (argmax_dim0, ["idx"]),
    "min_sqdist_to_centroids": (min_sqdist_to_centroids, ["dmin"]),
    "count_nonzero_rows": (count_nonzero_rows, ["count"]),
    "sigmoid_focal_loss_rows": (sigmoid_focal_loss_rows, ["loss"]),
    "rmsnorm_backward_dx": (rmsnorm_backward_dx, ["dx"]),
    "log_softmax_backward_rows": (log_softmax_backward_rows, ["grad_input"]),
    "cumsum_i32_rows": (cumsum_i32_rows, ["output"]),
    "moe_expert_matvec": (moe_expert_matvec, ["y"]),
    "strmv_un_kernel": (strmv_un_kernel, ["y"]),
    "ssyrk_ln": (ssyrk_ln, ["C"]),
    "depthwise_conv3d_k3": (depthwise_conv3d_k3, ["y"]),
    "avg_pool2d_k3s2p1": (avg_pool2d_k3s2p1, ["y"]),
    "resize_bilinear_nchw": (resize_bilinear_nchw, ["odata"]),
    "box_blur5x5_u8": (box_blur5x5_u8, ["dst"]),
    "stencil9_march_f64": (stencil9_march_f64, ["out"]),
}

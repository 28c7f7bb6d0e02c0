"""Independent PyTorch implementations of the twenty-fourth held-out set of kernels (tests/heldout31/*.cu), in the form
of tests/heldout30/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 1 reference model computes each operator, with the PyTorch call it ports, not as
translations of the kernels: `torch.matmul` with irregular shapes, `torch.triu(torch.matmul(A, B))` of upper
triangular inputs, the matrix-scalar product `A * s`, `torch.bmm(A, B.transpose(1, 2))`, `F.group_norm` on 3-D volumes,
`F.instance_norm` with an affine on channels-last tensors, `F.normalize(p=2, dim=1)` over the middle dimension,
`torch.min(dim=2).values`, `torch.log_softmax(dim=1)` over the middle dimension, `F.kl_div(reduction="batchmean",
log_target=True)`, `F.triplet_margin_loss(swap=True)` and `torch.selu`. Sizes are Python ints, float scalars Python
floats; arrays are torch.float32. The peers only call operators on their inputs (views, permutes, transposes, `triu`),
so they make no tensor of their own and run on a GPU as on the CPU. Every product runs with TF32 turned off (restored
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


# ------------------------------------------------------------------------------------------------------ products

def matmul_irregular(A, B, M, K, N, **_):
    # KernelBench's "matmul with irregular shapes": torch.matmul(A, B), A (M, K), B (K, N)
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(K, N))
    return {"C": C.reshape(-1)}


def triu_matmul(A, B, N, **_):
    # KernelBench's "matmul for upper triangular matrices": its inputs are upper triangular (torch.triu of random
    # matrices), so the model sees the inputs' upper triangles; forward is torch.triu(torch.matmul(A, B))
    A, B = torch.triu(A.view(N, N)), torch.triu(B.view(N, N))
    with _full_fp32():
        C = torch.triu(torch.matmul(A, B))
    return {"C": C.reshape(-1)}


def matrix_scalar_mul(A, s, M, N, **_):
    # KernelBench's "matrix scalar multiplication": A * s
    return {"C": (A.view(M, N) * s).reshape(-1)}


def bmm_nt(A, B, batch, M, N, K, **_):
    # torch.bmm(A, B.transpose(1, 2)): A (batch, M, K), B (batch, N, K)
    with _full_fp32():
        C = torch.bmm(A.view(batch, M, K), B.view(batch, N, K).transpose(1, 2))
    return {"C": C.reshape(-1)}


# ------------------------------------------------------------------------------------ normalizations, reductions

def group_norm_ncdhw(x, weight, bias, eps, N, C, G, D, H, W, **_):
    # nn.GroupNorm(G, C, eps=eps) (affine) on (N, C, D, H, W) volumes
    y = F.group_norm(x.view(N, C, D, H, W), G, weight, bias, eps)
    return {"y": y.reshape(-1)}


def instance_norm_nhwc(x, weight, bias, N, H, W, C, **_):
    # nn.InstanceNorm2d(C, affine=True) (eps 1e-5, no running stats) on channels_last activations: the NCHW tensor is
    # a permuted view of the NHWC storage, the result permuted back
    xc = x.view(N, H, W, C).permute(0, 3, 1, 2)
    y = F.instance_norm(xc, weight=weight, bias=bias, use_input_stats=True, eps=1e-5)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


def l2_normalize_dim1(x, B, C, L, **_):
    # F.normalize(x, p=2, dim=1) of (B, C, L): x / max(||x||_2 over C, 1e-12)
    return {"y": F.normalize(x.view(B, C, L), p=2.0, dim=1).reshape(-1)}


def amin_lastdim(x, B, D1, D2, **_):
    # KernelBench's "min reduction over a dimension" with dim=2: torch.min(x, dim=2)[0]
    return {"y": torch.min(x.view(B, D1, D2), dim=2)[0].reshape(-1)}


# ------------------------------------------------------------------------------------------ activations, losses

def log_softmax_dim1(x, B, C, L, **_):
    # torch.log_softmax(x, dim=1) of (B, C, L) logits
    return {"y": torch.log_softmax(x.view(B, C, L), dim=1).reshape(-1)}


def kl_div_log_target(x, t, loss, B, V, **_):
    # F.kl_div(input, target, reduction="batchmean", log_target=True), both (B, V) log-probabilities; added to the inout
    # scalar's value before the launch
    return {"loss": loss + F.kl_div(x.view(B, V), t.view(B, V), reduction="batchmean", log_target=True)}


def triplet_margin_swap(anchor, positive, negative, loss, B, D, **_):
    # nn.TripletMarginLoss(margin=1.0, p=2, eps=1e-6, swap=True), mean reduction; added to the inout scalar's value
    out = F.triplet_margin_loss(anchor.view(B, D), positive.view(B, D), negative.view(B, D), margin=1.0, p=2,
                                eps=1e-6, swap=True)
    return {"loss": loss + out}


def selu(x, n, **_):
    # torch.selu(x)
    return {"y": torch.selu(x)}


PEERS = {
    "matmul_irregular": (matmul_irregular, ["C"]),
    "triu_matmul": (triu_matmul, ["C"]),
    "matrix_scalar_mul": (matrix_scalar_mul, ["C"]),
    "bmm_nt": (bmm_nt, ["C"]),
    "group_norm_ncdhw": (group_norm_ncdhw, ["y"]),
    "instance_norm_nhwc": (instance_norm_nhwc, ["y"]),
    "l2_normalize_dim1": (l2_normalize_dim1, ["y"]),
    "amin_lastdim": (amin_lastdim, ["y"]),
    "log_softmax_dim1": (log_softmax_dim1, ["y"]),
    "kl_div_log_target": (kl_div_log_target, ["loss"]),
    "triplet_margin_swap": (triplet_margin_swap, ["loss"]),
    "selu": (selu, ["y"]),
}

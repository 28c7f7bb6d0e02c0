"""Independent PyTorch implementations of the fourth held-out set of naive kernels (tests/heldout11/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation, not as translations of the kernels. The kernels compute in
full fp32 (fp32 accumulation for the fp16 attention scores): the peers upcast before the matmul, and torch's fp32
matmuls default to full fp32."""

from __future__ import annotations

import torch
import torch.nn.functional as F


# ------------------------------------------------------------------------------------------------ element-wise maps

def gelu_erf_bf16(x, **_):
    return {"y": F.gelu(x)}


def dropout_apply(x, mask, scale, **_):
    return {"y": torch.where(mask.bool(), x * scale, torch.zeros_like(x))}


def complex_mul(a, b, **_):
    prod = torch.view_as_complex(a.view(-1, 2)) * torch.view_as_complex(b.view(-1, 2))
    return {"c": torch.view_as_real(prod).reshape(-1)}


def rgb_to_gray(rgb, height, width, **_):
    px = rgb.view(height, width, 3).to(torch.int32)
    weights = torch.tensor([77, 150, 29], dtype=torch.int32, device=rgb.device)
    gray = ((px * weights).sum(dim=2) + 128) >> 8
    return {"gray": gray.to(torch.uint8).reshape(-1)}


def diag_scale(r, A, c, m, n, **_):
    return {"B": (r.view(m, 1) * A.view(m, n) * c.view(1, n)).reshape(-1)}


def sgd_momentum_step(param, grad, buf, lr, momentum, weight_decay, **_):
    p = torch.nn.Parameter(param.clone())
    p.grad = grad.clone()
    opt = torch.optim.SGD([p], lr=lr, momentum=momentum, weight_decay=weight_decay)
    opt.state[p]["momentum_buffer"] = buf.clone()
    opt.step()
    return {"param": p.detach(), "buf": opt.state[p]["momentum_buffer"]}


# ------------------------------------------------------------------------------------------------------ reductions

def kl_div_rows(logp, logq, batch, classes, **_):
    pointwise = F.kl_div(logq.view(batch, classes), logp.view(batch, classes), reduction="none", log_target=True)
    return {"kl": pointwise.sum(dim=1)}


def huber_loss_sum(pred, target, loss, delta, **_):
    return {"loss": loss + F.huber_loss(pred, target, reduction="sum", delta=delta)}


def l1_normalize_rows(x, rows, cols, eps, **_):
    return {"y": F.normalize(x.view(rows, cols), p=1.0, dim=1, eps=eps).reshape(-1)}


# ----------------------------------------------------------------------------------------------------------- scans

def cumprod_rows(x, rows, cols, **_):
    return {"y": torch.cumprod(x.view(rows, cols), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------- transposes, gathers and scatters

def transpose_lda(A, m, n, lda, **_):
    return {"B": A.view(m, lda)[:, :n].t().contiguous().reshape(-1)}


def gather_dim1(x, idx, rows, K, J, **_):
    return {"out": torch.gather(x.view(rows, K), 1, idx.view(rows, J)).reshape(-1)}


def scatter_add_rows(src, idx, table, n, D, V, **_):
    return {"table": table.view(V, D).index_add(0, idx.long(), src.view(n, D)).reshape(-1)}


# ------------------------------------------------------------------------------------ matmuls and sparse matvecs

def attn_scores_qkt(Q, K, scale, batch, L, d, **_):
    q = Q.view(batch, L, d).float()
    k = K.view(batch, L, d).float()
    return {"S": (torch.bmm(q, k.transpose(1, 2)) * scale).reshape(-1)}


def spmv_ell(vals, col_idx, x, rows, ncols, K, **_):
    # entry e = k*rows + r of the ELL arrays belongs to row r
    row_of_entry = torch.arange(rows, device=vals.device).repeat(K)
    A = torch.sparse_coo_tensor(torch.stack([row_of_entry, col_idx.long()]), vals, (rows, ncols))
    return {"y": torch.sparse.mm(A, x.view(ncols, 1)).reshape(-1)}


# -------------------------------------------------------------------------------------------------------- pooling

def maxpool2d_k3s2p1(x, P, H, W, **_):
    return {"out": F.max_pool2d(x.view(P, 1, H, W), kernel_size=3, stride=2, padding=1).reshape(-1)}


PEERS = {
    "gelu_erf_bf16": (gelu_erf_bf16, ["y"]),
    "dropout_apply": (dropout_apply, ["y"]),
    "complex_mul": (complex_mul, ["c"]),
    "rgb_to_gray": (rgb_to_gray, ["gray"]),
    "diag_scale": (diag_scale, ["B"]),
    "sgd_momentum_step": (sgd_momentum_step, ["param", "buf"]),
    "kl_div_rows": (kl_div_rows, ["kl"]),
    "huber_loss_sum": (huber_loss_sum, ["loss"]),
    "l1_normalize_rows": (l1_normalize_rows, ["y"]),
    "cumprod_rows": (cumprod_rows, ["y"]),
    "transpose_lda": (transpose_lda, ["B"]),
    "gather_dim1": (gather_dim1, ["out"]),
    "scatter_add_rows": (scatter_add_rows, ["table"]),
    "attn_scores_qkt": (attn_scores_qkt, ["S"]),
    "spmv_ell": (spmv_ell, ["y"]),
    "maxpool2d_k3s2p1": (maxpool2d_k3s2p1, ["out"]),
}

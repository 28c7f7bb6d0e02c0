"""Independent PyTorch implementations of the 13 public example kernels (examples/*.cu), for the GPU bench.

PEERS[kernel_name] = (fn, outputs) where fn(**arrays_and_scalars_and_sizes) returns a dict {output_name: tensor}.
Arrays are passed as flat 1-D torch tensors of the contract's element type (as the kernel sees them: float32, int32
labels/keys, uint32 bins), sizes as Python ints, scalars as Python numbers; unused keywords are ignored.

Every fn returns flat tensors with the length and dtype of the kernel's out / inout arrays. The two atomic
accumulators (dot_atomic's result, histogram64's bins) are `inout ... const(0)`: zeroed before every run, so their
peers return the final value (the dot product, the key counts) computed from the inputs alone.

They are written the way a PyTorch user would write them, not as translations of the kernels, so they can be timed
under torch eager and torch.compile and used to cross-check the kernels' outputs. The semantics match the kernels:
layer norm with biased variance and eps inside the square root, no affine; clamp-to-edge (replicate) 3x3 box blur;
2x2/stride-2 max pool whose odd last row/column windows are cut short (ceil_mode); per-row softmax cross entropy
(logsumexp of the row minus the label's logit, no reduction over rows).

Precision: the kernels compute in full fp32, so the peers must too. torch's fp32 matmuls default to full fp32
(torch.backends.cuda.matmul.allow_tf32 is False, float32 matmul precision "highest"); a caller that lowers it would
push sgemm_nt and gemv_rowmajor past their 1e-4 tolerance at benchmark size. No peer here uses a convolution, so
cuDNN's TF32 default does not matter.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F

# ---------------------------------------------------------------------------------------------- element-wise maps

def vector_add(a, b, **_):
    return {"c": a + b}


def relu_scale(x, scale, **_):
    return {"y": torch.relu(x) * scale}


def add_transposed(A, B, rows, cols, **_):
    return {"out": (A.view(rows, cols) + B.view(cols, rows).T).reshape(-1)}


# -------------------------------------------------------------------------------------------------- reductions

def row_max(x, rows, cols, **_):
    return {"out": x.view(rows, cols).amax(dim=1)}


def prefix_sum_rows(x, rows, cols, **_):
    return {"y": torch.cumsum(x.view(rows, cols), dim=1).reshape(-1)}


def col_sum(x, rows, cols, **_):
    return {"out": x.view(rows, cols).sum(dim=0)}


def dot_atomic(a, b, **_):
    return {"result": torch.dot(a, b).reshape(1)}


# ------------------------------------------------------------------------------------------ multi-pass row ops

def layernorm_rows(x, rows, cols, eps, **_):
    return {"y": F.layer_norm(x.view(rows, cols), (cols,), eps=eps).reshape(-1)}


def cross_entropy_rows(logits, labels, rows, cols, **_):
    loss = F.cross_entropy(logits.view(rows, cols), labels.long(), reduction="none")
    return {"loss": loss}


# --------------------------------------------------------------------------------------- matmuls and matvecs

def sgemm_nt(A, B, M, N, K, **_):
    return {"C": (A.view(M, K) @ B.view(N, K).T).reshape(-1)}


def gemv_rowmajor(A, x, rows, cols, **_):
    return {"y": A.view(rows, cols) @ x}


# ---------------------------------------------------------------------------------------- stencils and pooling

def blur3x3(img, rows, cols, **_):
    padded = F.pad(img.view(1, 1, rows, cols), (1, 1, 1, 1), mode="replicate")
    return {"out": F.avg_pool2d(padded, kernel_size=3, stride=1).reshape(-1)}


def maxpool2x2(img, rows, cols, **_):
    out = F.max_pool2d(img.view(1, 1, rows, cols), kernel_size=2, stride=2, ceil_mode=True)
    return {"out": out.reshape(-1)}


# ----------------------------------------------------------------------------------- histograms and atomics

def histogram64(keys, bins, **_):
    return {"bins": torch.bincount(keys, minlength=64).to(bins.dtype)}


# PEERS[kernel_name] = (fn, outputs): fn(**arrays_and_scalars_and_sizes) returns {output_name: tensor}
PEERS: dict[str, tuple[Callable[..., dict[str, torch.Tensor]], tuple[str, ...]]] = {
    "vector_add": (vector_add, ("c",)),
    "relu_scale": (relu_scale, ("y",)),
    "layernorm_rows": (layernorm_rows, ("y",)),
    "row_max": (row_max, ("out",)),
    "col_sum": (col_sum, ("out",)),
    "dot_atomic": (dot_atomic, ("result",)),
    "add_transposed": (add_transposed, ("out",)),
    "sgemm_nt": (sgemm_nt, ("C",)),
    "gemv_rowmajor": (gemv_rowmajor, ("y",)),
    "blur3x3": (blur3x3, ("out",)),
    "histogram64": (histogram64, ("bins",)),
    "maxpool2x2": (maxpool2x2, ("out",)),
    "cross_entropy_rows": (cross_entropy_rows, ("loss",)),
    "prefix_sum_rows": (prefix_sum_rows, ("y",)),
}

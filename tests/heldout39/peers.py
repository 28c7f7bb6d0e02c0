"""Independent PyTorch implementations of the thirty-second held-out set of kernels (tests/heldout39/*.cu), in the
form of tests/heldout38/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output:
flat tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user (or the KernelBench model the kernel ports) computes each operator, with PyTorch calls
on whole tensors, not as translations of the kernels: `F.linear` followed by `torch.logsumexp`, `F.leaky_relu` and
`F.gelu`; `torch.sigmoid(...).sum(1)`; `F.group_norm` on the Linear output; CLIP's `x @ proj` divided by
`.norm(dim=1, keepdim=True)`; `F.softmax(F.gelu(...), dim=1)`; `torch.mean(dim=1, keepdim=True)` then
`torch.logsumexp` over that one element, `F.gelu` and the broadcast residual; `F.instance_norm` on the
`unsqueeze(1).unsqueeze(1)` view; ColBERT's `(Q @ D.transpose(1, 2)).max(2).values.sum(1)`; `F.conv3d`,
`F.max_pool3d`, `torch.logsumexp(dim=1)`, `torch.relu`; `F.conv3d`, `F.hardswish`, `F.group_norm` and a mean over the
spatial axes; `F.conv2d`, `F.avg_pool2d`, `torch.sigmoid` and a sum over (1, 2, 3); `F.conv1d`, `F.relu` and
`F.adaptive_avg_pool1d(1)`. Everything runs in float64 (cast to the kernel's output dtype at the end); the fp16
embeddings of `colbert_maxsim` are exact in float64. Sizes are Python ints, float scalars Python floats, template
arguments the contracts' values as defaults. The peers only call operators on their inputs, so they run on a GPU as on
the CPU. Where an array is `inout` (the atomically accumulated outputs, zero before the launch), the peer adds its
result to the array's value before the launch."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _f64(t):
    return t.to(torch.float64)


# ------------------------------------------------------------------------------ products reduced over the features

def gemm_logsumexp_leaky_gelu(x, weight, bias, B, K, N, **_):
    # KernelBench 64: Gemm, LogSumExp over the features, LeakyReLU x 2, GELU x 2
    z = F.linear(_f64(x).view(B, K), _f64(weight).view(N, K), _f64(bias))
    v = torch.logsumexp(z, dim=1, keepdim=True)
    v = F.leaky_relu(v, negative_slope=0.01)
    v = F.leaky_relu(v, negative_slope=0.01)
    v = F.gelu(v)
    v = F.gelu(v)
    return {"out": v.reshape(-1).to(x.dtype)}


def matmul_sigmoid_sum(x, weight, bias, out, batch_size, input_size, hidden_size, **_):
    # KernelBench 56: Linear, sigmoid, sum over the features (keepdim)
    z = F.linear(_f64(x).view(batch_size, input_size), _f64(weight).view(hidden_size, input_size), _f64(bias))
    s = torch.sum(torch.sigmoid(z), dim=1, keepdim=True)
    return {"out": (_f64(out) + s.reshape(-1)).to(out.dtype)}


def gemm_groupnorm_leakyrelu_double(x, w, bias, gamma, beta, B, IN, H, G, **_):
    # KernelBench 62: Linear, GroupNorm(G, H, eps=1e-5), LeakyReLU(0.01), x + x
    z = F.linear(_f64(x).view(B, IN), _f64(w).view(H, IN), _f64(bias))
    z = F.group_norm(z, G, _f64(gamma), _f64(beta), eps=1e-5)
    z = F.leaky_relu(z, negative_slope=0.01)
    z = z + z
    return {"y": z.reshape(-1).to(x.dtype)}


def clip_project_l2normalize(x, proj, n, width, embed, **_):
    # CLIP: features = x @ proj; features / features.norm(dim=1, keepdim=True)
    f = _f64(x).view(n, width) @ _f64(proj).view(width, embed)
    f = f / f.norm(dim=1, keepdim=True)
    return {"feats": f.reshape(-1).to(x.dtype)}


def linear_gelu_softmax(x, W, bias, batch, in_features, out_features, **_):
    # KernelBench 99: Linear, GELU, softmax over the features
    z = F.linear(_f64(x).view(batch, in_features), _f64(W).view(out_features, in_features), _f64(bias))
    y = F.softmax(F.gelu(z), dim=1)
    return {"y": y.reshape(-1).to(x.dtype)}


def gemm_sub_mean_gelu_residual(x, wt, bias, subtract, batch, in_f, out_f, **_):
    # KernelBench 51 with the Gemm weight handed over transposed ([in, out]): gemm.weight = wt.t()
    original_x = _f64(x).view(batch, in_f)
    z = F.linear(original_x, _f64(wt).view(in_f, out_f).t(), _f64(bias))
    z = z - _f64(subtract)
    z = torch.mean(z, dim=1, keepdim=True)
    z = torch.logsumexp(z, dim=1, keepdim=True)
    z = F.gelu(z)
    z = z + original_x
    return {"out": z.reshape(-1).to(x.dtype)}


def bmm_instancenorm_residual_mul(x, y, weight, bias, eps, batch, in_features, out_features, **_):
    # KernelBench 28: Linear, InstanceNorm2d over the [batch, 1, 1, features] view, + y, * y
    z = F.linear(_f64(x).view(batch, in_features), _f64(weight).view(out_features, in_features), _f64(bias))
    z = F.instance_norm(z.unsqueeze(1).unsqueeze(1), eps=eps).squeeze(1).squeeze(1)
    yy = _f64(y).view(batch, out_features)
    z = (z + yy) * yy
    return {"out": z.reshape(-1).to(x.dtype)}


def colbert_maxsim(q_emb, d_emb, scores, B, Lq, Ld, dim, **_):
    # ColBERT late interaction: (Q @ D^T).max(over document tokens).sum(over query tokens)
    q, d = q_emb, d_emb
    if q.dtype != torch.float16:                                     # fp16 arrays handed over as bit patterns
        q, d = q.view(torch.float16), d.view(torch.float16)
    Q = _f64(q).view(B, Lq, dim)
    D = _f64(d).view(B, Ld, dim)
    s = torch.bmm(Q, D.transpose(1, 2)).max(2).values.sum(1)
    return {"scores": (_f64(scores) + s).to(scores.dtype)}


# ------------------------------------------------------------------------------- convolutions and their reductions

def conv3d_maxpool_lse_relu(x, weight, bias, N, Cin, Cout, D, H, W, **_):
    # KernelBench 43: Conv3d(k=3, stride 1, padding 1), MaxPool3d(2, 2), logsumexp over channels, ReLU
    v = F.conv3d(_f64(x).view(N, Cin, D, H, W), _f64(weight).view(Cout, Cin, 3, 3, 3), _f64(bias), stride=1, padding=1)
    v = F.max_pool3d(v, kernel_size=2, stride=2)
    v = torch.logsumexp(v, dim=1, keepdim=True)
    v = torch.relu(v)
    return {"out": v.reshape(-1).to(x.dtype)}


def conv3d_hardswish_groupnorm_mean(x, weight, bias, gamma, beta, eps, N, Cin, Cout, D, H, W, K, CPG=4, **_):
    # KernelBench 27: Conv3d (valid), hardswish, GroupNorm(Cout / CPG groups), mean over (2, 3, 4)
    v = F.conv3d(_f64(x).view(N, Cin, D, H, W), _f64(weight).view(Cout, Cin, K, K, K), _f64(bias))
    v = F.hardswish(v)
    v = F.group_norm(v, Cout // CPG, _f64(gamma), _f64(beta), eps=eps)
    v = torch.mean(v, dim=[2, 3, 4])
    return {"out": v.reshape(-1).to(x.dtype)}


def conv2d_avgpool_sigmoid_sum(x, weight, bias, out, batch, in_ch, out_ch, height, width, ksize, POOL=4, **_):
    # KernelBench 65: Conv2d (valid), AvgPool2d(POOL), sigmoid, sum over (1, 2, 3)
    v = F.conv2d(_f64(x).view(batch, in_ch, height, width), _f64(weight).view(out_ch, in_ch, ksize, ksize), _f64(bias))
    v = F.avg_pool2d(v, POOL)
    v = torch.sigmoid(v)
    v = torch.sum(v, dim=[1, 2, 3])
    return {"out": (_f64(out) + v).to(out.dtype)}


def conv1d_relu_global_avgpool(x, w, bias, N, C_in, C_out, L, **_):
    # Conv1d(C_in, C_out, 5, stride=2, padding=2), ReLU, global average pooling over time
    v = F.conv1d(_f64(x).view(N, C_in, L), _f64(w).view(C_out, C_in, 5), _f64(bias), stride=2, padding=2)
    v = F.adaptive_avg_pool1d(F.relu(v), 1).squeeze(-1)
    return {"out": v.reshape(-1).to(x.dtype)}


PEERS = {
    "gemm_logsumexp_leaky_gelu": (gemm_logsumexp_leaky_gelu, ["out"]),
    "matmul_sigmoid_sum": (matmul_sigmoid_sum, ["out"]),
    "gemm_groupnorm_leakyrelu_double": (gemm_groupnorm_leakyrelu_double, ["y"]),
    "clip_project_l2normalize": (clip_project_l2normalize, ["feats"]),
    "linear_gelu_softmax": (linear_gelu_softmax, ["y"]),
    "gemm_sub_mean_gelu_residual": (gemm_sub_mean_gelu_residual, ["out"]),
    "bmm_instancenorm_residual_mul": (bmm_instancenorm_residual_mul, ["out"]),
    "colbert_maxsim": (colbert_maxsim, ["scores"]),
    "conv3d_maxpool_lse_relu": (conv3d_maxpool_lse_relu, ["out"]),
    "conv3d_hardswish_groupnorm_mean": (conv3d_hardswish_groupnorm_mean, ["out"]),
    "conv2d_avgpool_sigmoid_sum": (conv2d_avgpool_sigmoid_sum, ["out"]),
    "conv1d_relu_global_avgpool": (conv1d_relu_global_avgpool, ["out"]),
}

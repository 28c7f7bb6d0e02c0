"""GPU evidence for the spec form (issue 17 item 4): each spec-form intent below generated, its first kernel (the
first schedule of its program, generate/algorithm.py) run on the GPU at the declared shapes, and its outputs
compared with an independent PyTorch implementation of the operation written here (not derived from the spec, not
the contract's NumPy oracle), by the verifier's own comparison; then the same for intents in words, read through
their translation into the spec form.

    source scripts/gpu-env.sh; python3 bench/spec_bench.py OUT_DIR [--only TEXT ...] [--shard I/N]
        [--optimize SECONDS | --time]

Writes OUT_DIR/spec.json and prints a table. A misreading (the wrong axis, a transposed operand, an activation
written out wrong) shows as a mismatch with PyTorch. `--only`: the cases whose text contains one of the words.
With `--optimize`, each case that agrees is then optimized (`optiml_engine.optimize`, no LLM, the given seconds and
at most 40 candidates, the final check on fresh inputs and compute-sanitizer) and the offered kernel's time is put
beside torch eager and torch.compile of the same PyTorch implementation, timed in this process (L2 flushed, CUDA
events, median), at the declared shapes. With `--time`, each case that agrees has its plain kernel (the families'
algorithm) and its first kernel (what generate writes) verified and timed by the evaluator against the oracle, beside
torch eager and torch.compile of the same PyTorch implementation (no search). `--shard I/N`: every N-th case from
the I-th (two GPUs, two processes).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from optiml_engine.candidate import original_candidate  # noqa: E402
from optiml_engine.gpu.compare import compare  # noqa: E402
from optiml_engine.gpu.compile import compile_nvrtc  # noqa: E402
from optiml_engine.gpu.data import make_inputs  # noqa: E402
from optiml_engine.gpu.worker import CompiledKernel, Device, run_once  # noqa: E402
from optiml_engine.generate.algorithm import first_kernel  # noqa: E402
from optiml_engine.generate.families import generate_kernel  # noqa: E402
from optiml_engine.generate.intent import parse_intent  # noqa: E402
from optiml_engine.generate.spec import is_spec_form, spec_form  # noqa: E402
from optiml_engine.source.contract import resolve  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402

# (spec form, PyTorch: {input name: tensor of its declared shape} -> output tensor)
CASES = [
    ("y = softmax(x, axis=1); x: float32[512, 1000]", lambda t: torch.softmax(t["x"], 1)),
    ("p = torch.log_softmax(z, dim=-1); z: float32[8, 16, 1000]", lambda t: F.log_softmax(t["z"], -1)),
    ("out = x.mean(dim=0); x: float32[700, 300]", lambda t: t["x"].mean(0)),
    ("y = x.sum(axis=1); x: float32[16, 300, 40]", lambda t: t["x"].sum(1)),
    ("m = amax(x, axis=(1, 2)); x: float32[32, 50, 60]", lambda t: t["x"].amax((1, 2))),
    ("i = argmax(s, axis=-1); s: float32[300, 77]", lambda t: t["s"].argmax(-1).int()),
    ("i = argmax(s, axis=1); s: float32[6, 80, 9]", lambda t: t["s"].argmax(1).int()),
    ("l = logsumexp(x, axis=1); x: float32[8, 100, 30]", lambda t: torch.logsumexp(t["x"], 1)),
    ("n = norm(x, axis=1); x: float32[256, 333]", lambda t: torch.linalg.vector_norm(t["x"], dim=1)),
    ("t = max(x); x: float32[1000003]", lambda t: t["x"].max()),
    ("C = A @ B.T; A: float32[256, 128]; B: float32[192, 128]", lambda t: t["A"] @ t["B"].T),
    ("C = torch.matmul(A, B); A: float32[256, 128]; B: float32[128, 192]", lambda t: t["A"] @ t["B"]),
    ("y = W @ v; W: float32[500, 300]; v: float32[300]", lambda t: t["W"] @ t["v"]),
    ("y = x.T; x: float32[300, 500]", lambda t: t["x"].T),
    ("y = x.permute(2, 0, 1); x: float32[16, 32, 24]", lambda t: t["x"].permute(2, 0, 1)),
    ("s = cumsum(x); x: float32[100000]", lambda t: torch.cumsum(t["x"], 0)),
    ("y = cumsum(x, axis=0); x: float32[4096, 1024]", lambda t: torch.cumsum(t["x"], 0)),
    ("y = cumprod(x, axis=1, reverse=True); x: float32[16, 64, 512]",
     lambda t: torch.cumprod(t["x"].flip(1), 1).flip(1)),
    ("y = F.layer_norm(x, eps=1e-6); x: float32[256, 1024]", lambda t: F.layer_norm(t["x"], (1024,), eps=1e-6)),
    ("y = rms_norm(x, eps=1e-6); x: float32[4, 64, 512]",
     lambda t: t["x"] * torch.rsqrt(t["x"].pow(2).mean(-1, keepdim=True) + 1e-6)),
    ("y = silu(x) * g + 0.5; x: float32[1 << 16]; g: float32[65536]", lambda t: F.silu(t["x"]) * t["g"] + 0.5),
    ("y = x + b; x: float32[64, 16, 256]; b: float32[256]", lambda t: t["x"] + t["b"]),
    ("y = softplus(x); x: float32[100000]", lambda t: F.softplus(t["x"])),
    ("y = leaky_relu(x, 0.2); x: float32[100000]", lambda t: F.leaky_relu(t["x"], 0.2)),
    ("y = elu(x); x: float32[100000]", lambda t: F.elu(t["x"])),
    ("y = selu(x); x: float32[100000]", lambda t: F.selu(t["x"])),
    ("y = hardtanh(x, -0.5, 0.5); x: float32[100000]", lambda t: F.hardtanh(t["x"], -0.5, 0.5)),
    ("y = hardsigmoid(x); x: float32[100000]", lambda t: F.hardsigmoid(t["x"])),
    ("y = hardswish(x); x: float32[100000]", lambda t: F.hardswish(t["x"])),
    ("y = softsign(x); x: float32[100000]", lambda t: F.softsign(t["x"])),
    ("y = mish(x); x: float32[100000]", lambda t: F.mish(t["x"])),
    ("y = gelu(x, approximate='tanh'); x: float32[100000]", lambda t: F.gelu(t["x"], approximate="tanh")),
    ("y = gelu(x); x: float32[100000]", lambda t: F.gelu(t["x"])),
    ("i = argmin(x, axis=0); x: float32[700, 300]", lambda t: t["x"].argmin(0).int()),
    ("i = argmin(x, axis=1); x: float32[6, 80, 9]", lambda t: t["x"].argmin(1).int()),
    ("p = prod(x, axis=1); x: float64[300, 40]", lambda t: t["x"].prod(1)),
    ("y = instance_norm(x); x: float32[8, 32, 64, 64]", lambda t: F.instance_norm(t["x"])),
    ("y = group_norm(x, 4, eps=1e-6); x: float32[4, 32, 16, 16]", lambda t: F.group_norm(t["x"], 4, eps=1e-6)),
    ("y = layer_norm(x, axis=(-2, -1)); x: float32[16, 64, 128]", lambda t: F.layer_norm(t["x"], (64, 128))),
    ("l = huber_loss(p, q, delta=0.5); p: float32[128, 4096]; q: float32[128, 4096]",
     lambda t: F.huber_loss(t["p"], t["q"], delta=0.5)),
    ("l = smooth_l1_loss(p, q); p: float32[128, 4096]; q: float32[128, 4096]",
     lambda t: F.smooth_l1_loss(t["p"], t["q"])),
    ("l = hinge_loss(p, q); p: float32[32768]; q: float32[32768]",
     lambda t: torch.clamp(1 - t["p"] * t["q"], min=0).mean()),
    ("y = batch_norm(x); x: float32[16, 64, 128, 128]", lambda t: F.batch_norm(t["x"], None, None, training=True)),
    ("y = F.layer_norm(x, (1024,), w, b, eps=1e-5); x: float32[256, 1024]; w: float32[1024]; b: float32[1024]",
     lambda t: F.layer_norm(t["x"], (1024,), t["w"], t["b"], eps=1e-5)),
    ("y = rms_norm(x, eps=1e-6, weight=g); x: float32[4, 64, 512]; g: float32[512]",
     lambda t: t["x"] * torch.rsqrt(t["x"].pow(2).mean(-1, keepdim=True) + 1e-6) * t["g"]),
    ("y = layer_norm(x, axis=1, weight=w, bias=b); x: float32[8, 256, 64]; w: float32[256]; b: float32[256]",
     lambda t: F.layer_norm(t["x"].transpose(1, 2), (256,), t["w"], t["b"]).transpose(1, 2)),
    ("y = batch_norm(x, weight=g, bias=b); x: float32[16, 64, 32, 32]; g: float32[64]; b: float32[64]",
     lambda t: F.batch_norm(t["x"], None, None, t["g"], t["b"], training=True)),
    ("y = group_norm(x, 8, weight=w, bias=b, eps=1e-6); x: float32[8, 64, 32, 32]; w: float32[64]; b: float32[64]",
     lambda t: F.group_norm(t["x"], 8, t["w"], t["b"], eps=1e-6)),
    ("y = normalize(x, p=2, dim=1); x: float32[16, 16384]", lambda t: F.normalize(t["x"], p=2, dim=1)),
    ("y = l1_normalize(x, axis=1); x: float32[16, 16384]",
     lambda t: t["x"] / torch.sum(torch.abs(t["x"]), dim=1, keepdim=True)),
    ("l = triplet_margin_loss(a, p, n); a: float32[128, 4096]; p: float32[128, 4096]; n: float32[128, 4096]",
     lambda t: F.triplet_margin_loss(t["a"], t["p"], t["n"])),
    ("l = torch.mean(1 - F.cosine_similarity(x, y, dim=1)); x: float32[128, 4096]; y: float32[128, 4096]",
     lambda t: torch.mean(1 - F.cosine_similarity(t["x"], t["y"], dim=1))),
    ("C = A.T @ B; A: float32[1024, 512]; B: float32[1024, 768]", lambda t: t["A"].T @ t["B"]),
    ("C = A.T @ B.T; A: float32[1024, 512]; B: float32[768, 1024]", lambda t: t["A"].T @ t["B"].T),
    ("C = torch.bmm(A, B); A: float32[32, 256, 128]; B: float32[32, 128, 64]", lambda t: torch.bmm(t["A"], t["B"])),
    ("C = A @ B; A: float32[16, 256, 512]; B: float32[512, 384]", lambda t: t["A"] @ t["B"]),
    ("C = A @ B; A: float32[8, 64, 128, 256]; B: float32[256, 384]", lambda t: t["A"] @ t["B"]),
    ("y = A.T @ x; A: float32[4096, 1024]; x: float32[4096]", lambda t: t["A"].T @ t["x"]),
    ("C = torch.triu(torch.matmul(A, B)); A: float32[2048, 2048]; B: float32[2048, 2048]",
     lambda t: torch.triu(t["A"] @ t["B"])),
    ("C = tril(A @ B); A: float32[1024, 512]; B: float32[512, 1024]", lambda t: torch.tril(t["A"] @ t["B"])),
    ("C = torch.diag(a) @ B; a: float32[4096]; B: float32[4096, 4096]", lambda t: torch.diag(t["a"]) @ t["B"]),
    ("l = cross_entropy(x, t); x: float32[4096, 1000]; t: int32[4096]",
     lambda t: F.cross_entropy(t["x"], t["t"].long())),
    ("y = cumsum(x * m, axis=1); x: float32[128, 4000]; m: float32[128, 4000]",
     lambda t: torch.cumsum(t["x"] * t["m"], dim=1)),
    ("y = conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1); x: float32[8, 32, 64, 64]; "
     "w: float32[32, 16, 3, 3]; b: float32[16]",
     lambda t: F.conv_transpose2d(t["x"], t["w"], t["b"], stride=2, padding=1, output_padding=1)),
    ("y = conv_transpose1d(x, w, None, 3, 2, 1, 2, 2); x: float32[16, 32, 1024]; w: float32[32, 8, 5]",
     lambda t: F.conv_transpose1d(t["x"], t["w"], None, 3, 2, 1, 2, 2)),
    ("y = conv_transpose3d(x, w, stride=(2, 1, 2), padding=(0, 1, 1)); x: float32[2, 16, 8, 16, 16]; "
     "w: float32[16, 8, 3, 3, 3]", lambda t: F.conv_transpose3d(t["x"], t["w"], stride=(2, 1, 2), padding=(0, 1, 1))),
    ("l = kl_div(log(p), q, reduction='batchmean'); p: float32[128, 4096]; q: float32[128, 4096]",
     lambda t: F.kl_div(torch.log(t["p"]), t["q"], reduction="batchmean")),
    ("y = max_pool2d(x, 3, stride=2, padding=1); x: float32[16, 32, 112, 112]",
     lambda t: F.max_pool2d(t["x"], 3, stride=2, padding=1)),
    ("y = avg_pool2d(x, kernel_size=3, stride=2, padding=1); x: float32[8, 32, 56, 56]",
     lambda t: F.avg_pool2d(t["x"], 3, stride=2, padding=1)),
    ("y = max_pool1d(x, 4, stride=2, padding=2, dilation=3); x: float32[16, 64, 8192]",
     lambda t: F.max_pool1d(t["x"], 4, stride=2, padding=2, dilation=3)),
    ("y = avg_pool3d(x, 2); x: float64[2, 4, 32, 32, 32]", lambda t: F.avg_pool3d(t["x"], 2)),
    ("y = softmax(x, axis=0); x: float32[8192, 64]", lambda t: torch.softmax(t["x"], 0)),
    ("y = log_softmax(x, dim=1); x: float32[16, 1000, 64]", lambda t: F.log_softmax(t["x"], 1)),
    ("y = conv2d(x, w, padding=1); x: float32[8, 64, 56, 56]; w: float32[128, 64, 3, 3]",
     lambda t: F.conv2d(t["x"], t["w"], padding=1)),
    ("y = conv2d(x, w, b, stride=2, padding=(1, 2), dilation=(2, 1), groups=4); x: float32[4, 32, 40, 41]; "
     "w: float32[48, 8, 3, 5]; b: float32[48]",
     lambda t: F.conv2d(t["x"], t["w"], t["b"], stride=2, padding=(1, 2), dilation=(2, 1), groups=4)),
    ("y = conv1d(x, w, stride=2, padding=3); x: float32[16, 32, 4096]; w: float32[64, 32, 7]",
     lambda t: F.conv1d(t["x"], t["w"], stride=2, padding=3)),
    ("y = conv3d(x, w, padding=1); x: float32[2, 8, 16, 32, 32]; w: float32[16, 8, 3, 3, 3]",
     lambda t: F.conv3d(t["x"], t["w"], padding=1)),
    ("y = conv2d(x, w, groups=64, padding=1); x: float64[4, 64, 64, 64]; w: float64[64, 1, 3, 3]",
     lambda t: F.conv2d(t["x"], t["w"], groups=64, padding=1)),
    ("y = max_pool3d(x, kernel_size=3, stride=2, padding=1, dilation=(1, 2, 1)); x: float32[2, 3, 16, 32, 32]",
     lambda t: F.max_pool3d(t["x"], 3, stride=2, padding=1, dilation=(1, 2, 1))),
    ("y = x ** 2 + torch.exp(-x) / (1 + abs(w)); x: float64[4096]; w: float64[4096]",
     lambda t: t["x"] ** 2 + torch.exp(-t["x"]) / (1 + t["w"].abs())),
]

# Intents in words (generate/words.py reads them into the spec form; names as it gives them), same check.
WORD_CASES = [
    ("hardtanh of x (16, 16), min_val=-3, max_val=3", lambda t: F.hardtanh(t["x"], -3.0, 3.0)),
    ("LeakyReLU with slope 0.05 on (32, 1000)", lambda t: F.leaky_relu(t["x"], 0.05)),
    ("ELU activation on a 300 x 300 double matrix", lambda t: F.elu(t["x"])),
    ("Hardswish activation for an input of shape (32, 4096)", lambda t: F.hardswish(t["x"])),
    ("sum over dims 1 and 2 of a (8, 16, 32) tensor", lambda t: t["x"].reshape(8, 16, 32).sum((1, 2))),
    ("mean over the middle dimension of a 64 x 512 x 256 tensor", lambda t: t["x"].mean(1)),
    ("dot product of two vectors of length 4096", lambda t: (t["a"] * t["b"]).sum()),
    ("add bias b of length 64 to every row of x (1024, 64)", lambda t: t["x"] + t["b"]),
    ("mean absolute error of two 100 x 100 matrices", lambda t: F.l1_loss(t["a"], t["b"])),
    ("MSE loss between predictions and targets of shape (32, 10)", lambda t: F.mse_loss(t["p"], t["t"])),
    ("exclusive cumsum along dim 1 of (16, 1024)",
     lambda t: torch.cumsum(t["x"], 1) - t["x"]),
    ("reverse cumsum of x (256, 8192) along the last axis", lambda t: torch.cumsum(t["x"].flip(1), 1).flip(1)),
    ("cumulative product of every row of a 32 x 32 matrix", lambda t: torch.cumprod(t["x"], 1)),
    ("matrix multiply A (512x256) by B^T, B stored 384x256", lambda t: t["A"] @ t["B"].T),
    ("layer normalization of a (64, 768) tensor over its last dim, epsilon 1e-12",
     lambda t: F.layer_norm(t["x"], (768,), eps=1e-12)),
    ("maximum along axis 1 of a tensor of shape (32, 64, 8)", lambda t: t["x"].amax(1)),
    ("exact GELU of a (64, 1024) tensor", lambda t: F.gelu(t["x"])),
    ("argmin along dim 0 of a 4096 x 256 matrix", lambda t: t["x"].argmin(0).int()),
    ("GroupNorm with 8 groups on x of shape (2, 64, 16, 16), eps=1e-6",
     lambda t: F.group_norm(t["x"].reshape(2, 64, 16, 16), 8, eps=1e-6)),
    ("2x2 max pooling of x (8, 3, 64, 64)", lambda t: F.max_pool2d(t["x"].reshape(8, 3, 64, 64), 2)),
    ("conv2d with 64 output channels, 3x3 kernel, padding 1 on (8, 3, 224, 224)",
     lambda t: F.conv2d(t["x"], t["w"], padding=1)),
    ("Huber loss (delta=0.5) between predictions and targets, both 256 x 256",
     lambda t: F.huber_loss(t["a"], t["b"], delta=0.5)),
    ("KL divergence between predictions and targets of shape (128, 4096)",
     # The reading folds the batch into one axis (its sum divided by 128): batchmean is over the asked shape.
     lambda t: F.kl_div(torch.log(t["a"].reshape(128, 4096)), t["b"].reshape(128, 4096), reduction="batchmean")),
    ("masked cumulative sum along dim 1 of x (128, 4000)", lambda t: torch.cumsum(t["x"] * t["mask"], dim=1)),
    ("L2 normalization of each row of a (16, 16384) tensor",
     lambda t: t["x"] / torch.norm(t["x"], p=2, dim=1, keepdim=True)),
    ("cross entropy loss of logits (4096, 1000) and targets (4096,)", lambda t: F.cross_entropy(t["x"], t["t"].long())),
    ("ConvTranspose2d with 16 output channels, kernel 3, stride 2, padding 1, output padding 1 on (8, 32, 64, 64)",
     lambda t: F.conv_transpose2d(t["x"], t["w"], stride=2, padding=1, output_padding=1)),
]


def check(device: Device, text: str, reference) -> dict:
    spec = parse_intent(text)
    form = text if is_spec_form(text) else spec_form(spec)
    generated = first_kernel(generate_kernel(spec), device.info.arch())
    document = CudaDocument(generated.text, "spec.cu")
    candidate = original_candidate(document, generated.kernel)
    contract = candidate.contract
    resolved = resolve(contract, contract.sizes)
    compiled = compile_nvrtc(candidate.unit, arch=device.info.arch())
    if not compiled.ok:
        raise RuntimeError(f"does not compile: {compiled.log[:200]}")
    # The key names the loaded module: distinct per case (several cases generate a kernel called map_y).
    kernel = CompiledKernel(key=f"{generated.kernel}:{text}", cubin=compiled.cubin, lowered_name=compiled.lowered_name,
                            params=candidate.params, contract=contract)
    inputs = make_inputs(device.cp, contract.arrays, resolved.lengths, seed=11)
    outputs = run_once(device, kernel, resolved, inputs, poison=0)
    tensors = torch_inputs(form, inputs)
    expected = reference(tensors).contiguous().reshape(-1)
    array = next(a for a in contract.arrays if a.param == spec.output)
    got = outputs[spec.output]
    result = compare(device.cp, spec.output, got, device.cp.asarray(expected), array.dtype, contract.tol,
                     contract.atol)
    return {"spec": text, "read_as": form, "family": spec.family, "operation": spec.operation,
            "kernel": generated.kernel, "first_kernel": generated.strategy, "verdict": result.verdict,
            "error": result.rel_err, "reason": result.reason,
            "source": generated.text}


def torch_inputs(form: str, inputs: dict) -> dict:
    """The kernel's inputs as tensors of their declared shapes (by the spec form's declarations)."""
    declared = {clause.split(":")[0].strip(): clause for clause in form.split(";")[1:]}
    return {name: torch.as_tensor(values, device="cuda").reshape(_declared_shape(declared[name]))
            for name, values in inputs.items() if name in declared}   # not an accumulator the kernel starts from


def optimized(row: dict, reference, evaluator, pool, seconds: float) -> dict:
    """The case's kernel optimized, and torch eager and torch.compile of its PyTorch implementation timed."""
    from optiml_engine.optimize import default_policies, optimize
    from optiml_engine.search.mcts import SearchBudget, SearchConfig

    document = CudaDocument(row["source"], "spec.cu")
    result = optimize(document, row["kernel"], evaluator, default_policies(False),
                      SearchBudget(candidates=40, seconds=seconds), SearchConfig(parallel=len(pool.workers)),
                      profile=False)
    final = result.final if result.accepted else result.original
    found = {"first_ms": result.original.timing.median_ms if result.original.timing else None,
             "offered_ms": final.timing.median_ms if final.timing else None,
             "floor_ms": final.sol.floor_ms if final.sol else None,
             "accepted": result.accepted, "evaluated": result.evaluated, "stop": result.stop_reason,
             "trajectory": [f"{step.rule}: {step.description}" for step in result.trajectory],
             **peer_times(row, reference)}
    found["beats_compile"] = bool(found["offered_ms"] and found["offered_ms"] < found["compiled_ms"])
    return found


def timed(row: dict, reference, evaluator, pool) -> dict:
    """The case's plain kernel (the families' algorithm) and first kernel verified and timed against the oracle,
    and torch eager and torch.compile of its PyTorch implementation."""
    from optiml_engine.candidate import reference_candidate

    found = {}
    generated = generate_kernel(parse_intent(row["spec"]))
    for kind, text in (("plain", generated.text), ("first", row["source"])):
        document = CudaDocument(text, "spec.cu")
        candidate = original_candidate(document, row["kernel"])
        measured = evaluator.evaluate(candidate, reference_candidate(document, candidate))
        found[f"{kind}_ms"] = measured.timing.median_ms if measured.ok and measured.timing else None
        found[f"{kind}_verdict"] = measured.verdict
        found["floor_ms"] = measured.sol.floor_ms if measured.sol else found.get("floor_ms")
    return {**found, **peer_times(row, reference)}


def peer_times(row: dict, reference) -> dict:
    """torch eager and torch.compile of the case's PyTorch implementation, on inputs of its declared shapes."""
    from ir_bench import time_torch

    contract = original_candidate(CudaDocument(row["source"], "spec.cu"), row["kernel"]).contract
    tensors = torch_inputs(row["read_as"], make_inputs(np, contract.arrays, resolve(contract, contract.sizes).lengths,
                                                       seed=5))
    compiled = torch.compile(reference)
    return {"eager_ms": time_torch(lambda **kw: reference(kw), tensors),
            "compiled_ms": time_torch(lambda **kw: compiled(kw), tensors)}


def _declared_shape(clause: str) -> list[int]:
    from optiml_engine.generate.spec import DECLARATION, _dimension

    name, _, dims = DECLARATION.match(clause).groups()
    return [_dimension(d, name) for d in dims.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", nargs="+", default=[])
    parser.add_argument("--optimize", type=float, metavar="SECONDS")
    parser.add_argument("--time", action="store_true")
    parser.add_argument("--shard", default="0/1")
    args = parser.parse_args()
    # The comparison is with fp32 arithmetic: cuDNN's TF32 convolutions would round the reference itself.
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    args.out.mkdir(parents=True, exist_ok=True)
    device = Device(0)
    shard, shards = (int(part) for part in args.shard.split("/"))
    cases = [(text, reference) for text, reference in CASES + WORD_CASES
             if not args.only or any(word in text for word in args.only)][shard::shards]
    rows = []
    result = {"device": device.info.name, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "command": "source scripts/gpu-env.sh; python3 bench/spec_bench.py $OUT " + " ".join(sys.argv[2:]),
              "cases": rows}
    for text, reference in cases:
        try:
            rows.append(check(device, text, reference))
        except Exception as error:  # noqa: BLE001 - a case that fails to run is a failed case, said
            rows.append({"spec": text, "verdict": "error", "reason": f"{type(error).__name__}: {error}"})
        print(f"{rows[-1]['verdict']:6} {text}  {rows[-1].get('reason', '')[:100]}", flush=True)
    passed = sum(r["verdict"] == "ok" for r in rows)
    result.update(agree=passed, total=len(rows))
    (args.out / "spec.json").write_text(json.dumps(result, indent=1))
    print(f"\n{passed} of {len(rows)} spec-form kernels agree with PyTorch on {device.info.name}")
    if args.optimize:
        optimize_all(args, rows, dict(cases), result)
    elif args.time:
        time_all(args, rows, dict(cases), result)
    return 0 if passed == len(rows) else 1


def measure_all(args, rows: list[dict], references: dict, result: dict, key: str, measure) -> None:
    """`measure(row, reference, evaluator, pool)` of each case that agrees, kept under `key` in its row (or the
    error it raised), the JSON rewritten after each."""
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.gpu.pool import WorkerPool

    with WorkerPool() as pool:
        evaluator = Evaluator(pool, use_cache=False)
        for row in rows:
            if row["verdict"] != "ok":
                continue
            try:
                row[key] = measure(row, references[row["spec"]], evaluator, pool)
            except Exception as error:  # noqa: BLE001 - said in the row; the next case still runs
                row[key] = {"error": f"{type(error).__name__}: {error}"}
            print(f"{row['kernel']}: {row[key]}", flush=True)
            (args.out / "spec.json").write_text(json.dumps(result, indent=1))


def time_all(args, rows: list[dict], references: dict, result: dict) -> None:
    measure_all(args, rows, references, result, "timed", timed)
    lines = ["| spec | first kernel | plain ms | first ms | first x floor | torch eager ms | torch.compile ms | "
             "first beats compile |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        found = row.get("timed") or {}
        if found.get("first_ms") and found.get("compiled_ms"):
            plain = f"{found['plain_ms']:.4f}" if found.get("plain_ms") else found.get("plain_verdict", "-")
            lines.append(f"| `{row['spec']}` | {row['first_kernel']} | {plain} | {found['first_ms']:.4f} | "
                         f"{found['first_ms'] / found['floor_ms']:.2f} | {found['eager_ms']:.4f} | "
                         f"{found['compiled_ms']:.4f} | "
                         f"{'yes' if found['first_ms'] < found['compiled_ms'] else 'no'} |")
        elif found:
            lines.append(f"| `{row['spec']}` | {row.get('first_kernel', '')} | {found.get('error') or found} "
                         f"| | | | | |")
    (args.out / "timed.md").write_text("\n".join(lines) + "\n")


def optimize_all(args, rows: list[dict], references: dict, result: dict) -> None:
    measure_all(args, rows, references, result, "optimized",
                lambda row, reference, evaluator, pool: optimized(row, reference, evaluator, pool, args.optimize))
    lines = ["| spec | first kernel ms | offered ms | offered x floor | torch eager ms | torch.compile ms | "
             "beats compile |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        found = row.get("optimized") or {}
        if "offered_ms" in found and found["offered_ms"]:
            lines.append(f"| `{row['spec']}` | {found['first_ms']:.4f} | {found['offered_ms']:.4f} | "
                         f"{found['offered_ms'] / found['floor_ms']:.2f} | {found['eager_ms']:.4f} | "
                         f"{found['compiled_ms']:.4f} | {'yes' if found['beats_compile'] else 'no'} |")
        elif found:
            lines.append(f"| `{row['spec']}` | {found.get('error', '-')} | | | | | |")
    table = "\n".join(lines) + "\n"
    (args.out / "optimized.md").write_text(table)
    print(table)


if __name__ == "__main__":
    sys.exit(main())

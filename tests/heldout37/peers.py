"""Independent PyTorch implementations of the thirtieth held-out set of kernels (tests/heldout37/*.cu), in the form
of tests/heldout36/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way each benchmark's reference (its CPU gold code) or a NumPy / PyTorch user computes the operator, with
PyTorch calls on whole tensors, not as translations of the kernels: PolyBench's gesummv, mvt and syr2k as matrix
products (`A @ x`, `A.T @ y`, `A @ B.T + B @ A.T`), fdtd-2d's magnetic-field update as differences of shifted slices,
3DConvolution as an `F.conv3d` with the 3 x 3 x 3 kernel its fifteen terms add up to, correlation's standard
deviation as `((data - mean) ** 2).sum(0)` with PolyBench's FLOAT_N and EPS, gramschmidt's column norm by
`torch.linalg.vector_norm`, Rodinia's hotspot step on a replicate-padded grid, the N-body step from a matrix of all
pairwise separations, mri-q's Q as `cos` / `sin` of the phase matrix `2 pi X K^T` times |phi|^2, Black-Scholes as the
sample's gold code prices them (in double, with its polynomial normal CDF) and the D2Q9 BGK collision from the
moments and the equilibrium of the lattice velocities. The reductions, products and transcendental functions run in
float64 (the kernels compute in fp32 unless they are fp64 kernels) and are cast to the kernel's dtype at the end.
Sizes are Python ints, float scalars Python floats; arrays are torch.float32 except the float64 arrays of
mvt_kernel2, gramschmidt_kernel1 and collide_bgk_d2q9. The peers only call operators on their inputs and on tensors
made on the input's device; the all-pairs peers work in chunks of rows so that they fit in memory at the benchmark
sizes; they run on a GPU as on the CPU."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _f64(t):
    return t.to(torch.float64)


# -------------------------------------------------------------------------------------------- products (PolyBench)

def gesummv_kernel(A, B, tmp, x, y, alpha, beta, n, **_):
    # PolyBench gesummv: tmp = A x, y = alpha * tmp + beta * B x (here on top of tmp's and y's old values)
    a, b, xv = _f64(A).view(n, n), _f64(B).view(n, n), _f64(x)
    t = _f64(tmp) + a @ xv
    yb = _f64(y) + b @ xv
    return {"tmp": t.to(tmp.dtype), "y": (alpha * t + beta * yb).to(y.dtype)}


def mvt_kernel2(a, x2, y_2, n, **_):
    # PolyBench mvt, second product: x2 = x2 + A^T y_2
    return {"x2": x2 + a.view(n, n).t() @ y_2}


def syr2k_kernel(a, b, c, alpha, beta, n, m, **_):
    # PolyBench syr2k (full matrix): C = alpha A B^T + alpha B A^T + beta C
    A, B = _f64(a).view(n, m), _f64(b).view(n, m)
    C = beta * _f64(c).view(n, n) + alpha * (A @ B.t() + B @ A.t())
    return {"c": C.to(c.dtype).reshape(-1)}


# ---------------------------------------------------------------------------------------------------- stencils

def calculate_temp(power, temp_src, Cap, Rx, Ry, Rz, step, grid_rows, grid_cols, iteration, **_):
    # Rodinia hotspot, one step: explicit update of the chip temperature with clamped (replicated) edges
    assert iteration == 1
    T = _f64(temp_src).view(1, 1, grid_rows, grid_cols)
    P = _f64(power).view(grid_rows, grid_cols)
    Tp = F.pad(T, (1, 1, 1, 1), mode="replicate")[0, 0]
    t = Tp[1:-1, 1:-1]
    north, south = Tp[:-2, 1:-1], Tp[2:, 1:-1]
    west, east = Tp[1:-1, :-2], Tp[1:-1, 2:]
    amb_temp = 80.0
    delta = (step / Cap) * (P + (south + north - 2.0 * t) / Ry + (east + west - 2.0 * t) / Rx + (amb_temp - t) / Rz)
    return {"temp_dst": (t + delta).to(temp_src.dtype).reshape(-1)}


def fdtd_step3_kernel(ex, ey, hz, nx, ny, **_):
    # PolyBench fdtd-2d: hz -= 0.7 * (dex/dy + dey/dx) on the staggered grid
    EX = _f64(ex).view(nx, ny + 1)
    EY = _f64(ey).view(nx + 1, ny)
    H = _f64(hz).view(nx, ny)
    out = H - 0.7 * (EX[:, 1:] - EX[:, :-1] + EY[1:, :] - EY[:-1, :])
    return {"hz": out.to(hz.dtype).reshape(-1)}


def convolution3D_kernel(A, B, ni, nj, nk, **_):
    # PolyBench 3DConvolution: its fifteen terms as one 3 x 3 x 3 cross-correlation, interior points only
    c11, c21, c31 = 2.0, 5.0, -8.0
    c12, c22, c32 = -3.0, 6.0, -9.0
    c13, c23, c33 = 4.0, 7.0, 10.0
    terms = [  # (di, dj, dk, coefficient)
        (-1, -1, -1, c11), (1, -1, -1, c13), (-1, -1, -1, c21), (1, -1, -1, c23), (-1, -1, -1, c31),
        (1, -1, -1, c33), (0, -1, 0, c12), (0, 0, 0, c22), (0, 1, 0, c32), (-1, -1, 1, c11), (1, -1, 1, c13),
        (-1, 0, 1, c21), (1, 0, 1, c23), (-1, 1, 1, c31), (1, 1, 1, c33),
    ]
    w = torch.zeros(3, 3, 3, dtype=torch.float64, device=A.device)
    for di, dj, dk, coef in terms:
        w[di + 1, dj + 1, dk + 1] += coef
    out = B.clone().view(ni, nj, nk)
    if ni > 2 and nj > 2 and nk > 2:
        inner = F.conv3d(_f64(A).view(1, 1, ni, nj, nk), w.view(1, 1, 3, 3, 3))[0, 0]
        out[1:-1, 1:-1, 1:-1] = inner.to(B.dtype)
    return {"B": out.reshape(-1)}


# -------------------------------------------------------------------------------------------------- reductions

def std_kernel(mean, data, m, n, **_):
    # PolyBench correlation: column standard deviations over PolyBench's FLOAT_N, 1.0 where <= EPS
    float_n, eps = 3214212.01, 0.005
    d = _f64(data).view(n, m) - _f64(mean)[None, :]
    s = torch.sqrt((d * d).sum(dim=0) / float_n)
    s = torch.where(s <= eps, torch.ones_like(s), s)
    return {"std": s.to(data.dtype)}


def gramschmidt_kernel1(a, r, k, ni, nj, **_):
    # PolyBench gramschmidt: R[k][k] = ||A[:, k]||_2
    out = r.clone().view(nj, nj)
    out[k, k] = torch.linalg.vector_norm(_f64(a).view(ni, nj)[:, k]).to(r.dtype)
    return {"r": out.reshape(-1)}


# ------------------------------------------------------------------------------------------ all-pairs kernels

def integrateBodies(oldPos, vel, deltaTime, damping, numBodies, **_):
    # CUDA samples nbody: softened all-pairs gravity (G = 1, the mass in w), then the sample's integrator
    soft2 = 0.1 * 0.1
    P = _f64(oldPos).view(numBodies, 4)
    pos, mass = P[:, :3], P[:, 3]
    acc = torch.empty(numBodies, 3, dtype=torch.float64, device=oldPos.device)
    for s in range(0, numBodies, 1024):
        rij = pos[None, :, :] - pos[s:s + 1024, None, :]                  # [rows, N, 3], p_j - p_i
        inv_r3 = (rij.pow(2).sum(-1) + soft2).pow(-1.5)                   # [rows, N]
        acc[s:s + 1024] = ((mass[None, :] * inv_r3)[..., None] * rij).sum(1)
    V = _f64(vel).view(numBodies, 4).clone()
    V[:, :3] = (V[:, :3] + acc * deltaTime) * damping
    newP = P.clone()
    newP[:, :3] = pos + V[:, :3] * deltaTime
    return {"newPos": newP.to(oldPos.dtype).reshape(-1), "vel": V.to(vel.dtype).reshape(-1)}


def ComputeQ_GPU(kx, ky, kz, phiMag, x, y, z, Qr, Qi, numK, numX, **_):
    # Parboil mri-q: Q(x) = sum_k |phi_k|^2 exp(i 2 pi k . x), accumulated onto Qr, Qi
    K = torch.stack([_f64(kx), _f64(ky), _f64(kz)], dim=1)              # [numK, 3]
    X = torch.stack([_f64(x), _f64(y), _f64(z)], dim=1)                 # [numX, 3]
    pm = _f64(phiMag)
    qr, qi = _f64(Qr).clone(), _f64(Qi).clone()
    for s in range(0, numX, 32768):
        phase = 2.0 * math.pi * (X[s:s + 32768] @ K.t())                # [rows, numK]
        qr[s:s + 32768] += torch.cos(phase) @ pm
        qi[s:s + 32768] += torch.sin(phase) @ pm
    return {"Qr": qr.to(Qr.dtype), "Qi": qi.to(Qi.dtype)}


# ----------------------------------------------------------------------------------------------------- map

def BlackScholesGPU(d_StockPrice, d_OptionStrike, d_OptionYears, Riskfree, Volatility, **_):
    # Black-Scholes European call and put as the sample's gold code computes them: in double, with the
    # Abramowitz-Stegun polynomial for the normal CDF (the CND of BlackScholes_gold.cpp)
    def cnd(d):
        a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
        k = 1.0 / (1.0 + 0.2316419 * d.abs())
        c = 0.39894228040143267793994605993438 * torch.exp(-0.5 * d * d) * (
            k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
        return torch.where(d > 0, 1.0 - c, c)

    S, X, T = _f64(d_StockPrice), _f64(d_OptionStrike), _f64(d_OptionYears)
    R, V = Riskfree, Volatility
    sqrtT = torch.sqrt(T)
    d1 = (torch.log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT)
    d2 = d1 - V * sqrtT
    n1, n2 = cnd(d1), cnd(d2)
    disc = X * torch.exp(-R * T)
    call = S * n1 - disc * n2
    put = disc * (1.0 - n2) - S * (1.0 - n1)
    return {"d_CallResult": call.to(d_StockPrice.dtype), "d_PutResult": put.to(d_StockPrice.dtype)}


# --------------------------------------------------------------------------------------------------- lattice

def collide_bgk_d2q9(f, omega, nx, ny, **_):
    # D2Q9 BGK collision: moments, second-order equilibrium, relaxation towards it
    c = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]],
                     dtype=f.dtype, device=f.device)                      # [9, 2]
    w = torch.tensor([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4, dtype=f.dtype, device=f.device)
    fi = f.view(9, ny * nx)
    rho = fi.sum(0)
    u = (c.t() @ fi) / rho                                                 # [2, cells]
    cu = c @ u                                                             # [9, cells]
    usq = (u * u).sum(0)
    feq = w[:, None] * rho[None, :] * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * usq[None, :])
    return {"fpost": (fi - omega * (fi - feq)).reshape(-1)}


PEERS = {
    "gesummv_kernel": (gesummv_kernel, ["tmp", "y"]),
    "mvt_kernel2": (mvt_kernel2, ["x2"]),
    "syr2k_kernel": (syr2k_kernel, ["c"]),
    "calculate_temp": (calculate_temp, ["temp_dst"]),
    "fdtd_step3_kernel": (fdtd_step3_kernel, ["hz"]),
    "convolution3D_kernel": (convolution3D_kernel, ["B"]),
    "std_kernel": (std_kernel, ["std"]),
    "gramschmidt_kernel1": (gramschmidt_kernel1, ["r"]),
    "integrateBodies": (integrateBodies, ["newPos", "vel"]),
    "ComputeQ_GPU": (ComputeQ_GPU, ["Qr", "Qi"]),
    "BlackScholesGPU": (BlackScholesGPU, ["d_CallResult", "d_PutResult"]),
    "collide_bgk_d2q9": (collide_bgk_d2q9, ["fpost"]),
}

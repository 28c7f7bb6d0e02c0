"""fp32 matrix products (4096^3 unless told) in the four layouts (NN, NT, TN, TT): every contraction schedule the program allows
(ir/schedule.py's space), emitted, verified against the naive kernel and timed by the evaluator, beside cuBLAS
sgemm through torch.matmul with TF32 off, in one process on one device (issue 16's comparison).

    python3 bench/contraction_bench.py OUT_DIR [--shape M N K] [--layouts NN NT TN TT] [--profile]

The naive kernels are written here, one per layout, from one text: C[i, j] = sum_k A(i, k) * B(k, j), A stored
M x K (N) or K x M (T), B stored K x N (N) or N x K (T). Writes OUT_DIR/contraction.json and contraction.md; prints
the table last. With --profile, each layout's fastest schedule is profiled with Nsight Compute (registers, the
diagnosis' headline and its largest stall reasons: where the rest of the time goes).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.ir.emit import EmitError, emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.model import VerifyPolicy
from optiml_engine.source.parse import CudaDocument

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ir_bench import time_torch  # noqa: E402 - the peers' timing protocol, shared with the loop-nest bench

NAIVE = """/* @optiml
   sizes:  M={m} N={n} K={k}
   check:  M=33 N=65 K=17; M=1 N=1 K=1; M=128 N=96 K=200
   A:      in  float[M*K]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-4
*/
__global__ void sgemm_{name}(const float* A, const float* B, float* C, int M, int N, int K)
{{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M && j < N) {{
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[{a}] * B[{b}];
        C[i * N + j] = acc;
    }}
}}
"""
A_INDEX = {"N": "i * K + k", "T": "k * M + i"}
B_INDEX = {"N": "k * N + j", "T": "j * K + k"}


def cublas_ms(layout: str, m: int, n: int, k: int) -> float:
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    # The stored matrices, read transposed where the layout says: what cuBLAS gets as op(A), op(B).
    left = torch.rand(k, m, device="cuda").t() if layout[0] == "T" else torch.rand(m, k, device="cuda")
    right = torch.rand(n, k, device="cuda").t() if layout[1] == "T" else torch.rand(k, n, device="cuda")
    return time_torch(lambda x, y: torch.matmul(x, y), {"x": left, "y": right})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--shape", type=int, nargs=3, default=[4096, 4096, 4096], metavar=("M", "N", "K"))
    parser.add_argument("--layouts", nargs="+", default=["NN", "NT", "TN", "TT"])
    parser.add_argument("--profile", action="store_true", help="profile each layout's fastest schedule with ncu")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=7), use_cache=False)
        m, n, k = args.shape
        result = {"device": pool.devices[0].model_dump(), "command": "python3 bench/contraction_bench.py $OUT "
                  f"--shape {m} {n} {k} --layouts {' '.join(args.layouts)}{' --profile' if args.profile else ''}",
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "layouts": rows}
        for layout in args.layouts:
            text = NAIVE.format(m=m, n=n, k=k, name=layout.lower(), a=A_INDEX[layout[0]], b=B_INDEX[layout[1]])
            document = CudaDocument(text, f"sgemm_{layout.lower()}.cu")
            naive = original_candidate(document, f"sgemm_{layout.lower()}")
            program = lift(naive)
            shape = shape_of(program)
            row = {"layout": layout, "cublas_ms": cublas_ms(layout, m, n, k), "schedules": []}
            measured = {}
            for schedule in space(shape, "contraction"):
                try:
                    candidate = emit(program, shape, schedule, naive)
                except EmitError as error:
                    row["schedules"].append({"schedule": schedule.describe(), "error": str(error)})
                    continue
                measurement = evaluator.evaluate(candidate, reference=naive)
                measured[schedule.describe()] = (candidate, measurement)
                usage = measurement.compile.resources if measurement.compile else None
                entry = {"schedule": schedule.describe(), "verdict": measurement.verdict,
                         "reason": measurement.reason,
                         "median_ms": measurement.timing.median_ms if measurement.timing else None,
                         "floor_ms": measurement.sol.floor_ms if measurement.sol else None,
                         "registers": usage.registers if usage else None}
                row["schedules"].append(entry)
                print(f"{layout} {entry['verdict']} {entry['median_ms']} {schedule.describe()}", flush=True)
            timed = [s for s in row["schedules"] if s.get("verdict") in ("ok", "suspect_fast") and s["median_ms"]]
            best = min(timed, key=lambda s: s["median_ms"], default=None)
            row["best"] = best
            if best and args.profile:
                (profile,) = evaluator.profile([measured[best["schedule"]]])
                best.update(diagnosis=profile.diagnosis.headline, top_stalls=profile.diagnosis.top_stalls[:4],
                            profile_note=profile.note)
            row["best_over_cublas"] = best["median_ms"] / row["cublas_ms"] if best else None
            rows.append(row)
            (args.out / "contraction.json").write_text(json.dumps(result, indent=2))
    lines = [f"# fp32 matrix products, M={m} N={n} K={k}, on {result['device']['name']}", "",
             f"Command: `{result['command']}` ({result['date']}). cuBLAS: torch.matmul, TF32 off, L2 flushed, "
             f"CUDA events, median. Ours: the evaluator's protocol (verified against the naive kernel, then timed).",
             "", "| layout | best schedule | ms | floor ms | cuBLAS ms | ours / cuBLAS | schedules verified | "
             "registers | profile (largest stalls) |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        best = row["best"] or {}
        verified = sum(s.get("verdict") in ("ok", "suspect_fast") for s in row["schedules"])
        ratio = f"{row['best_over_cublas']:.2f}" if row["best_over_cublas"] else "-"
        lines.append(f"| {row['layout']} | {best.get('schedule', '-')} | {best.get('median_ms', 0):.3f} | "
                     f"{best.get('floor_ms') or 0:.3f} | {row['cublas_ms']:.3f} | {ratio} | "
                     f"{verified} of {len(row['schedules'])} | {best.get('registers', '-')} | "
                     f"{best.get('diagnosis', '-')}: "
                     f"{', '.join(f'{r} {s:.0f}%' for r, s in best.get('top_stalls', []))} |")
    table = "\n".join(lines) + "\n"
    (args.out / "contraction.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()

"""Does the lift read a kernel however its loops and sums are spelled? Every kernel the lift reads as written is
written again in each of SPELLINGS (spellings with the same meaning that people also write: the index's terms in
another order, a test with its operands swapped, `acc = acc + e` for `acc += e`, ...) and lifted again; a spelling
it refuses is a gap in the lift's reading of the class, not of one kernel.

    python3 bench/respell_probe.py OUT.json [FOLDER ...]     (default: examples/ and every tests/heldout*/)

Prints a line a spelling (kernels it applied to, refused) and each refusal with its reason; writes OUT.json.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.candidate import original_candidate  # noqa: E402
from optiml_engine.ir.lift import lift  # noqa: E402
from optiml_engine.ir.program import LoopProgram  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402

SPELLINGS: dict[str, Callable[[str], str]] = {
    # blockIdx.x * blockDim.x + threadIdx.x -> threadIdx.x + blockDim.x * blockIdx.x
    "index terms reordered": lambda t: re.sub(r"blockIdx\.([xyz])\s*\*\s*blockDim\.\1\s*\+\s*threadIdx\.\1",
                                              r"threadIdx.\1 + blockDim.\1 * blockIdx.\1", t),
    # if (i >= n) return; -> if (n <= i) return;
    "guard operands swapped": lambda t: re.sub(r"if\s*\(\s*([\w.]+)\s*>=\s*([\w.()* ]+?)\s*\)\s*return;",
                                               r"if (\2 <= \1) return;", t),
    # acc += e; -> acc = acc + (e);
    "compound assignment written out": lambda t: re.sub(r"(\n\s*)([A-Za-z_]\w*)\s*\+=\s*([^;\n]+);",
                                                        r"\1\2 = \2 + (\3);", t),
    # for (...; ++k) and for (...; k++) -> k += 1
    "increment as += 1": lambda t: re.sub(r";\s*(?:\+\+([A-Za-z_]\w*)|([A-Za-z_]\w*)\+\+)\s*\)",
                                          lambda m: f"; {m.group(1) or m.group(2)} += 1)", t),
    # for (int k = 0; k < K; ++k) -> k != K
    "loop test !=": lambda t: re.sub(r"for\s*\(\s*int\s+(\w+)\s*=\s*0\s*;\s*\1\s*<\s*(\w+)\s*;\s*(\+\+\1|\1\+\+)\s*\)",
                                     r"for (int \1 = 0; \1 != \2; ++\1)", t),
    # if (c) return; -> if (c) { return; }
    "return in braces": lambda t: re.sub(r"(if\s*\([^;{}\n]*\))\s*return;", r"\1 { return; }", t),
    # int i = blockIdx.x ... -> unsigned int i = ...
    "unsigned index": lambda t: re.sub(r"\bint\s+(\w+)\s*=\s*(blockIdx|threadIdx)", r"unsigned int \1 = \2", t),
    # for (...; i < n; ...) -> n > i
    "loop test operands swapped": lambda t: re.sub(r"for\s*\(([^;]*);\s*(\w+)\s*<\s*(\w+)\s*;", r"for (\1; \3 > \2;",
                                                   t),
    # 1.0f -> 1.f
    "float literal 1.f": lambda t: re.sub(r"\b(\d+)\.0f\b", r"\1.f", t),
    # for (int k = 0; k < K; ...) -> k <= K - 1
    "loop test <= n - 1": lambda t: re.sub(r"for\s*\(\s*int\s+(\w+)\s*=\s*0\s*;\s*\1\s*<\s*(\w+)\s*;",
                                          r"for (int \1 = 0; \1 <= \2 - 1;", t),
    # (float)e -> static_cast<float>(e) for a name or a parenthesized operand
    "static_cast": lambda t: re.sub(r"\((float|int|long|double)\)\s*([\w.]+|\([^()]*\))", r"static_cast<\1>(\2)", t),
    # const float* x -> const float* __restrict__ x in the kernel's parameters
    "restrict parameters": lambda t: re.sub(r"(__global__[^{]*?)\bconst float\*\s*(\w)",
                                            r"\1const float* __restrict__ \2", t, count=1),
    # if (i >= n) return; BODY (to the kernel's end) -> if (i < n) { BODY }
    "guard around the body": lambda t: re.sub(
        r"\n(\s*)if\s*\(\s*(\w+)\s*>=\s*([^;{}\n]+?)\s*\)\s*return;\n((?:.|\n)*?)\n}\n",
        r"\n\1if (\2 < \3) {\n\4\n\1}\n}\n", t, count=1),
    # x[i] read in a plain statement -> *(x + i), for arrays named x, a, b, in, input
    "pointer arithmetic read": lambda t: re.sub(r"(=[^;\n&]*?[^&\w])(x|a|b|input|in)\[([^\[\]]+)\]", r"\1*(\2 + (\3))",
                                                t),
    # if (i < n) -> if (n > i), a guard's or a branch's test with its operands swapped
    "if test operands swapped": lambda t: re.sub(r"if\s*\(\s*(\w+)\s*<\s*(\w+)\s*\)", r"if (\2 > \1)", t),
    # for (...; i += s) -> i = i + s
    "loop update written out": lambda t: re.sub(r";\s*([A-Za-z_]\w*)\s*\+=\s*([^;()]+?)\s*\)", r"; \1 = \1 + \2)", t),
    # int i = blockIdx.x ... -> auto i = ... (an unsigned int)
    "auto index": lambda t: re.sub(r"\bint\s+(\w+)\s*=\s*(blockIdx|threadIdx)", r"auto \1 = \2", t),
    # int n) -> const int n) in the kernel's parameters
    "const scalar parameters": lambda t: re.sub(r"(__global__[^{]*?)\bint (\w+)\)", r"\1const int \2)", t, count=1),
    # __global__ -> extern "C" __global__ (a kernel written for NVRTC or a driver-API loader)
    "extern C": lambda t: re.sub(r"^(template\s*<[^>]*>\s*)?__global__", lambda m: m.group(0) if m.group(1) else
                                 'extern "C" __global__', t, count=1, flags=re.M),
    # __global__ void k( -> __global__ void __launch_bounds__(1024) k(
    "launch bounds": lambda t: re.sub(r"__global__\s+void\s+", "__global__ void __launch_bounds__(1024) ", t, count=1),
    # a #pragma unroll line before every for loop of the kernel's body
    "pragma unroll": lambda t: t[:t.index("__global__")] + re.sub(r"\n(\s*)for\s*\(", r"\n\1#pragma unroll\n\1for (",
                                                                  t[t.index("__global__"):]),
    # x[e] read in a plain statement -> __ldg(&x[e]), for arrays named x, a, b, input, in
    "__ldg reads": lambda t: re.sub(r"(=[^;\n&]*?[^&\w])(x|a|b|input|in)\[([^\[\]]+)\]", r"\1__ldg(&\2[\3])", t),
    # int i = blockIdx.x * blockDim.x + threadIdx.x -> size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x
    "size_t index": lambda t: re.sub(r"\bint\s+(\w+)\s*=\s*blockIdx\.([xyz])\s*\*",
                                     r"size_t \1 = (size_t)blockIdx.\2 *", t),
    # for (int k = 0; k < K; ...) -> long long k
    "long long counters": lambda t: re.sub(r"for\s*\(\s*int\s+(\w+)\s*=\s*0\s*;\s*\1\s*<",
                                           r"for (long long \1 = 0; \1 <", t),
    # for (int k = 0; k < K; ...) -> unsigned k
    "unsigned counters": lambda t: re.sub(r"for\s*\(\s*int\s+(\w+)\s*=\s*0\s*;\s*\1\s*<", r"for (unsigned \1 = 0; \1 <",
                                          t),
    # if (c) s; on one line -> if (c) { s; }
    "braced if bodies": lambda t: re.sub(r"(\bif\s*\((?:[^()\n]|\([^()\n]*\))*\))[ \t]*([^;{}\n]+;)", r"\1 { \2 }", t),
    # blockIdx.x * blockDim.x -> __umul24(blockIdx.x, blockDim.x) (the CUDA samples' 24-bit multiply)
    "__umul24 index": lambda t: re.sub(r"blockIdx\.([xyz])\s*\*\s*blockDim\.\1", r"__umul24(blockIdx.\1, blockDim.\1)",
                                       t),
    # blockDim.x * gridDim.x -> gridDim.x * blockDim.x
    "stride factors swapped": lambda t: re.sub(r"blockDim\.([xyz])\s*\*\s*gridDim\.\1", r"gridDim.\1 * blockDim.\1", t),
    # threadIdx.x -> a local tid declared first in the body (where the kernel names it nowhere yet)
    "thread index in a local": lambda t: t if re.search(r"=\s*threadIdx\.x\s*;", t) else re.sub(
        r"(__global__[^{]*\{)", r"\1\n    const int tid_x = threadIdx.x;", t, count=1).replace(
        "threadIdx.x", "tid_x").replace("const int tid_x = tid_x;", "const int tid_x = threadIdx.x;"),
}


def lifted(text: str, path: str) -> LoopProgram | str:
    document = CudaDocument(text, path)
    program = lift(original_candidate(document, document.model.kernels[0].name))
    return program if isinstance(program, LoopProgram) else str(program)


def probe(files: list[Path]) -> dict[str, list[dict]]:
    """For each spelling, each kernel (lifted as written) it changes: whether the respelled kernel lifts, and why
    not."""
    found: dict[str, list[dict]] = {name: [] for name in SPELLINGS}
    for path in files:
        text = path.read_text()
        try:
            if not isinstance(lifted(text, str(path)), LoopProgram):
                continue
        except Exception:       # a file whose contract does not parse: not the lift's to read
            continue
        for name, spell in SPELLINGS.items():
            respelled = spell(text)
            if respelled == text:
                continue
            try:
                result = lifted(respelled, str(path))
                why = None if isinstance(result, LoopProgram) else result
            except Exception as error:
                why = f"{type(error).__name__}: {error}"
            found[name].append({"file": str(path.relative_to(ROOT)), "lifted": why is None, "why": why})
    return found


def main() -> None:
    out = Path(sys.argv[1])
    folders = [Path(f).resolve() for f in sys.argv[2:]] or \
        [ROOT / "examples", *sorted(p for p in (ROOT / "tests").glob("heldout*") if p.is_dir())]
    files = sorted(f for folder in folders for f in folder.glob("*.cu"))
    found = probe(files)
    out.write_text(json.dumps({"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               "command": "python3 bench/respell_probe.py " + " ".join(sys.argv[1:]),
                               "spellings": found}, indent=1))
    for name, rows in found.items():
        refused = [row for row in rows if not row["lifted"]]
        print(f"{name:34} applied {len(rows):4}  refused {len(refused)}")
        for row in refused:
            print(f"    {row['file']}: {row['why'][:160]}")


if __name__ == "__main__":
    main()

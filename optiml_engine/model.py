"""Pydantic models at the boundaries between pipeline stages.

The data flows one way: source -> contract -> compile unit -> compile result -> (candidate -> evaluation ...).
Every stage takes and returns these models; nothing downstream reaches back into the tree-sitter tree or the
contract text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# Canonical element types. C spellings map onto these in `source.ctypes`.
Dtype = Literal[
    "float16", "bfloat16", "float32", "float64",
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool",
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------------------------------------------------------
# Locations and errors


class Location(Frozen):
    """A point in a user's file; line and column are 1-based, as editors and compilers print them."""

    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class OptimlError(Exception):
    """A user-facing error: always located, always one line, always says what was expected."""

    def __init__(self, location: Location, message: str, expected: str | None = None):
        self.location = location
        self.message = message
        self.expected = expected
        super().__init__(str(self))

    def __str__(self) -> str:
        tail = f" (expected {self.expected})" if self.expected else ""
        return f"{self.location}: error: {self.message}{tail}"


class Position(Frozen):
    """0-based line and column (LSP convention); column counts bytes of the UTF-8 line."""

    line: int
    column: int


class Span(Frozen):
    start_byte: int
    end_byte: int
    start: Position
    end: Position


# ---------------------------------------------------------------------------------------------------------------
# Source model (source/parse.py)


class Param(Frozen):
    name: str
    type_text: str            # as written, e.g. "const float* __restrict__"
    base_type: str            # element/base type as written, e.g. "float", "T", "unsigned char"
    is_pointer: bool
    is_const: bool            # const element (const T*), the read-only marker the contract inference uses
    is_restrict: bool
    span: Span


class TemplateParam(Frozen):
    name: str
    kind: str                 # "typename" or the non-type parameter's type ("int", "unsigned", ...)
    default: str | None = None


class Comment(Frozen):
    text: str
    span: Span


class Kernel(Frozen):
    name: str
    params: list[Param]
    template_params: list[TemplateParam] = Field(default_factory=list)
    launch_bounds: str | None = None
    span: Span                # whole definition, template header included
    name_span: Span
    body_span: Span
    comment: Comment | None = None   # the comment block directly above the kernel


class LaunchSite(Frozen):
    kernel: str
    template_args: str | None = None
    grid: str
    block: str
    smem: str | None = None
    stream: str | None = None
    args: list[str]
    span: Span
    in_function: str | None = None


DeviceItemKind = Literal[
    "include", "macro", "device_function", "kernel", "variable", "type", "namespace", "conditional", "other"
]


class DeviceItem(Frozen):
    """A top-level item that device code may need: what it defines and which identifiers it uses."""

    kind: DeviceItemKind
    defines: list[str]
    uses: list[str]
    span: Span


class SyntaxProblem(Frozen):
    location: Location
    message: str


class SourceModel(Frozen):
    path: str
    kernels: list[Kernel]
    launch_sites: list[LaunchSite]
    device_items: list[DeviceItem]
    syntax_problems: list[SyntaxProblem] = Field(default_factory=list)

    def kernel(self, name: str) -> Kernel | None:
        return next((k for k in self.kernels if k.name == name), None)


# ---------------------------------------------------------------------------------------------------------------
# Benchmark contract (source/contract.py)

Direction = Literal["in", "out", "inout"]


class InitSpec(Frozen):
    """How an input array is filled: uniform(lo,hi) / normal(mean,std) for floats, range(lo,hi) for integers
    (hi exclusive), const(v) for either."""

    kind: Literal["uniform", "normal", "range", "const"]
    args: tuple[float, ...]


class ArraySpec(Frozen):
    param: str
    direction: Direction
    dtype: Dtype
    length: str               # expression over size symbols
    init: InitSpec


class ScalarSpec(Frozen):
    param: str
    dtype: Dtype
    value: str                # expression over size symbols (a size symbol itself for bound ints)


class LaunchRule(Frozen):
    grid: list[str]           # 1-3 expressions
    block: list[str]          # 1-3 expressions
    smem: str = "0"           # dynamic shared memory bytes


class Contract(Frozen):
    kernel: str
    sizes: dict[str, int]
    checks: list[dict[str, int]] = Field(default_factory=list)  # complete bindings (missing symbols from sizes)
    arrays: list[ArraySpec]
    scalars: list[ScalarSpec]
    launch: LaunchRule
    flops: str | None = None
    bytes: str | None = None  # override; default: sum of in/inout array sizes read + out/inout written
    tol: float = 1e-5
    atol: float | None = None
    template: dict[str, str] = Field(default_factory=dict)
    reference: str | None = None
    # The spec form the kernel was generated from (generate/spec.py): its loop-nest program is built from it, not
    # read from the kernel, which may be a schedule of it that no longer reads as one.
    spec: str | None = None
    location: Location        # where the @optiml block starts

    def param_order(self) -> list[str]:
        """The kernel's parameter names as the contract covers them (arrays and scalars)."""
        return [a.param for a in self.arrays] + [s.param for s in self.scalars]


class ReferenceOracle(Frozen):
    """A contract's `reference:` written as NumPy expressions (oracle.py): for each compared array, its expected
    contents as an expression over the inputs, the size symbols and the scalars. The verifier compares the kernel's
    outputs with these instead of with another kernel's."""

    outputs: dict[str, str]   # out/inout array param -> expression text
    text: str                 # the `reference:` value as written (its identity in caches)


class ResolvedContract(Frozen):
    """A contract evaluated at one size binding (contract.resolve): everything a launch needs, as numbers."""

    binding: dict[str, int]
    lengths: dict[str, int]                  # array param -> element count
    scalars: dict[str, int | float]          # scalar param -> value
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int
    flops: float | None
    bytes: int


# ---------------------------------------------------------------------------------------------------------------
# Compilation (gpu/compile.py)


class CompileUnit(Frozen):
    """Device-only source that compiles alone: the kernel plus its device-side closure, with #line directives
    that map every line back to the user's file."""

    path: str
    kernel: str
    name_expression: str      # "k" or "k<float, 256>": what NVRTC instantiates and lowers
    text: str


class ResourceUsage(Frozen):
    registers: int
    shared_bytes: int         # static shared memory
    stack_frame_bytes: int
    spill_store_bytes: int
    spill_load_bytes: int
    constant_bytes: int = 0
    barriers: int = 0


class CompileDiagnostic(Frozen):
    location: Location
    severity: Literal["error", "warning"]
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"


class CompileResult(Frozen):
    ok: bool
    kernel: str
    backend: Literal["nvrtc", "nvcc"]
    arch: str
    lowered_name: str | None = None
    cubin: bytes | None = None
    resources: ResourceUsage | None = None
    diagnostics: list[CompileDiagnostic] = Field(default_factory=list)
    log: str = ""
    compiler_version: str = ""
    seconds: float = 0.0


# ---------------------------------------------------------------------------------------------------------------
# Evaluation (gpu/worker.py, evaluate.py, sol.py)


class Candidate(Frozen):
    """What the search proposes and the evaluator measures: device code, how to launch it, and how it was made."""

    unit: CompileUnit
    contract: Contract        # feeding and launch rule (a candidate may carry a launch rule of its own)
    params: list[str]         # the kernel's parameter names in declaration order: the launch argument order
    flags: list[str] = Field(default_factory=list)
    description: str = "original"
    parent: str | None = None


class TimingPolicy(Frozen):
    warmup_runs: int = 3
    min_runs: int = 20
    max_runs: int = 200
    max_seconds: float = 3.0
    target_half_width: float = 0.02   # stop when the median's 95% interval is within +-2%


class VerifyPolicy(Frozen):
    trials: int = 3           # fresh seeds per size
    seed: int = 0             # base seed; each trial derives its own
    timeout_s: float = 60.0   # a candidate that runs longer than this is a hang


class TimingStats(Frozen):
    median_ms: float
    ci_low_ms: float          # 95% interval of the median
    ci_high_ms: float
    iqr_ms: float
    spread_ms: float          # what the median may move between runs: the IQR, floored (gpu/timing.py)
    min_ms: float
    max_ms: float
    runs: int


class SpeedupStats(Frozen):
    median: float             # incumbent time / candidate time, per interleaved pair
    ci_low: float
    ci_high: float
    pairs: int


class DeviceInfo(Frozen):
    index: int
    name: str
    compute_capability: str   # "9.0"
    sm_count: int
    l2_bytes: int
    memory_bytes: int
    sm_clock_mhz: int
    memory_clock_mhz: int
    driver: str               # "13.0" from cudaDriverGetVersion
    runtime: str

    def arch(self) -> str:
        return "sm_" + self.compute_capability.replace(".", "")


class DeviceCeilings(Frozen):
    device: DeviceInfo
    copy_gbps: float          # device-to-device copy, bytes read + written
    fp32_tflops: float        # cuBLAS sgemm (no TF32)
    measured_at: str


Verdict = Literal[
    "ok", "compile_error", "launch_error", "crash", "timeout", "wrong", "nonfinite", "unwritten",
    "uninitialized_read", "race", "stateful", "ignores_inputs", "suspect_fast", "sanitizer", "bad_reference",
]


class SizeCheck(Frozen):
    binding: dict[str, int]
    trials: int
    max_rel_err: float
    ok: bool
    verdict: Verdict = "ok"
    reason: str = ""
    against_exact: bool = False   # judged against the original's program in double (EvaluateJob.exact), not its output


class SolReport(Frozen):
    bytes: int
    flops: float
    floor_ms: float
    bound: Literal["memory", "compute"]
    headroom: float           # time / floor (>= 1 unless suspect)
    percent_of_sol: float     # 100 * floor / time
    achieved_gbps: float
    achieved_gflops: float
    suspect: bool             # faster than 0.9x the floor: measurement or kernel is gaming


class Measurement(Frozen):
    kernel: str
    candidate_key: str
    description: str
    verdict: Verdict
    reason: str = ""
    compile: CompileResult | None = None
    checks: list[SizeCheck] = Field(default_factory=list)
    timing: TimingStats | None = None
    incumbent_timing: TimingStats | None = None
    speedup: SpeedupStats | None = None
    sol: SolReport | None = None
    device: DeviceInfo | None = None
    toolkit: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"



# ---------------------------------------------------------------------------------------------------------------
# Generation from an intent (generate/)

GenerateFamily = Literal[
    "elementwise", "row_reduction", "column_reduction", "global_reduction", "middle_reduction", "row_normalization",
    "transpose", "gemm", "gemv", "stencil", "histogram", "prefix_sum", "row_scan", "pooling", "convolution",
    "axis_normalization", "batch_normalization", "transposed_convolution", "cross_entropy", "row_pair_loss",
    "axis_scan",
]
GenerateOperation = Literal[
    "map", "sum", "mean", "max", "min", "l2norm", "argmax", "argmin", "prod", "softmax", "log_softmax", "logsumexp",
    "layernorm", "rmsnorm", "transpose", "permute", "gemm", "gemv", "conv1d", "conv2d", "histogram", "prefix_sum",
    "cumprod", "max_pool", "avg_pool", "conv", "batchnorm", "conv_transpose", "cross_entropy", "l1normalize",
    "l2normalize", "triplet_margin_loss", "cosine_similarity_loss",
]


class KernelSpec(Frozen):
    """What an intent asks for (generate/intent.py), complete: every choice the generator needs is made, and those
    the intent did not state are listed in `assumed`."""

    intent: str
    family: GenerateFamily
    operation: GenerateOperation
    kernel: str                           # the generated kernel's name
    dtype: Literal["float32", "float64", "int32"] = "float32"   # the data's element type
    sizes: dict[str, int]                 # benchmark size of every size symbol, in the order the kernel takes them
    inputs: list[str]                     # input array names
    output: str                           # output array name
    expression: str | None = None         # elementwise: the formula over the inputs (source/expr.py syntax)
    row_vectors: list[str] = Field(default_factory=list)   # elementwise: inputs of one row, broadcast over rows
    column_vectors: list[str] = Field(default_factory=list)   # elementwise: one value per row, along it (diag(a) @ B)
    scalars: dict[str, float] = Field(default_factory=dict)  # eps
    axes: list[int] = Field(default_factory=list)          # permute: output axis i is input axis axes[i]
    width: int = 0                        # stencil: filter width (square in 2-D); histogram: bins
    transpose_a: bool = False             # gemm: C = A^T B (A stored K x M); gemv: y = A^T x (A stored cols x rows)
    transpose_b: bool = False             # gemm: C = A B^T (B stored N x K)
    triangle: Literal["", "upper", "lower"] = ""   # gemm: only C's upper (triu) or lower (tril) triangle, zeros elsewhere
    reverse: bool = False                 # row_scan, axis_scan: from the line's end to its start
    exclusive: bool = False               # row_scan, axis_scan: each element the scan of those before it
    window: list[int] = Field(default_factory=list)     # pooling, per spatial axis: kernel size,
    stride: list[int] = Field(default_factory=list)     # stride,
    padding: list[int] = Field(default_factory=list)    # padding on both sides,
    dilation: list[int] = Field(default_factory=list)   # and dilation (convolution: the same, window = the weight's)
    groups: int = 1                       # convolution: channel groups
    output_padding: list[int] = Field(default_factory=list)   # transposed convolution: extra output on one side
    reduction: Literal["mean", "sum"] = "mean"   # a loss over rows (cross entropy, row-pair losses): how they combine
    assumed: list[str] = Field(default_factory=list)
    # Who read the intent into this spec when OptiML's own readers refused it: "the LLM (model, k of n strategies
    # agree)"; None for OptiML's readers and the spec form.
    read_by: str | None = None


class GeneratedKernel(Frozen):
    """A first kernel for a spec: CUDA text with its @optiml contract, whose `reference:` is a NumPy oracle."""

    spec: KernelSpec
    kernel: str
    text: str                             # description comment + contract + kernel, ready to insert in a file
    reference: str                        # the oracle, as the contract's reference: line holds it
    strategy: str = "built-in"            # "built-in", or the LLM strategy whose kernel verified

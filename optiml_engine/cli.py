"""`optiml` command line: the engine's stages driven from a terminal, for batch use and CI.

Exit codes: 0 success; 1 the input is wrong (every message located as file:line:col); 2 the environment lacks
something (no GPU, no nvcc).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from optiml_engine.model import CompileResult, Kernel, Measurement, OptimlError, SourceModel
from optiml_engine.source.contract import parse_contract
from optiml_engine.source.infer import infer_contract_text
from optiml_engine.source.parse import CudaDocument

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Make CUDA kernels faster, with proof.")
# Piped output (CI logs, grep) gets wide lines instead of Rich's 80-column default for non-terminals.
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_INPUT = 1
EXIT_ENVIRONMENT = 2
CUDA_SUFFIXES = {".cu", ".cuh"}


def fail(message: str, code: int = EXIT_INPUT) -> typer.Exit:
    err.print(message, markup=False)
    return typer.Exit(code)


def load_document(path: Path) -> CudaDocument:
    """Read a file the user named; a missing or unreadable file is an input error, not a traceback."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"{path}: error: cannot read file ({exc.__class__.__name__}: {exc})")
    return CudaDocument(text, str(path))


def cuda_files(paths: list[Path]) -> list[Path]:
    """Files named directly, plus the .cu/.cuh files of named directories."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in CUDA_SUFFIXES))
        else:
            files.append(path)
    return files


def select_kernel(model: SourceModel, name: str | None) -> Kernel:
    if not model.kernels:
        raise fail(f"{model.path}:1:1: error: no __global__ kernel found (expected a CUDA file with a kernel)")
    if name is None:
        if len(model.kernels) > 1:
            names = ", ".join(k.name for k in model.kernels)
            raise fail(f"{model.path}:1:1: error: the file has {len(model.kernels)} kernels "
                       f"(expected --kernel with one of: {names})")
        return model.kernels[0]
    kernel = model.kernel(name)
    if kernel is None:
        names = ", ".join(k.name for k in model.kernels)
        raise fail(f"{model.path}:1:1: error: no kernel named '{name}' (expected one of: {names})")
    return kernel


def report_syntax(model: SourceModel) -> bool:
    for problem in model.syntax_problems:
        err.print(f"{problem.location}: error: {problem.message}", markup=False)
    return bool(model.syntax_problems)


def line_of(path: str, kernel: Kernel) -> str:
    return f"{path}:{kernel.name_span.start.line + 1}"


@app.command()
def kernels(
    paths: Annotated[list[Path], typer.Argument(help="CUDA files or directories")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="only this kernel")] = None,
    contract: Annotated[bool, typer.Option("--contract", help="print an inferred contract for the kernel")] = False,
) -> None:
    """List kernels, their contract status and launch sites. Exit 1 if anything is broken or uncontracted."""
    files = cuda_files(paths)
    if not files:
        raise fail(f"{paths[0]}: error: no .cu or .cuh files (expected a CUDA file or a directory holding some)")
    broken = False
    table = Table()
    table.add_column("kernel", no_wrap=True)
    for column in ("parameters", "contract", "launch sites (lines)", "where"):
        table.add_column(column)
    for path in files:
        document = load_document(path)
        model = document.model
        broken |= report_syntax(model)
        chosen = [select_kernel(model, kernel)] if kernel or contract else model.kernels
        if not chosen:
            err.print(f"{path}:1:1: error: no __global__ kernel found (expected a CUDA file with a kernel)", markup=False)
            broken = True
        if contract:
            with err.status(f"inferring a contract for {chosen[0].name} (running it on the CPU at small sizes)..."):
                inferred = infer_contract_text(document.text, model.path, chosen[0].name, model.launch_sites)
            out.print(inferred, markup=False)
            continue
        for k in chosen:
            try:
                parse_contract(k, model.path)
                status = "[green]ok[/]"
            except OptimlError as exc:
                err.print(str(exc), markup=False)
                status = "[red]missing[/]" if k.comment is None or "@optiml" not in k.comment.text else "[red]error[/]"
                broken = True
            sites = [f"{s.span.start.line + 1}" for s in model.launch_sites if s.kernel == k.name]
            params = ", ".join(p.name for p in k.params)
            table.add_row(k.name, params, status, ", ".join(sites) or "-", line_of(model.path, k))
    if not contract:
        out.print(table)
    if broken:
        raise typer.Exit(EXIT_INPUT)


@app.command()
def compile(
    path: Annotated[Path, typer.Argument(help="CUDA file")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="kernel name (optional with one kernel)")] = None,
    arch: Annotated[str, typer.Option(help="target architecture")] = "sm_90",
    backend: Annotated[str, typer.Option(help="nvrtc (fast, in-process) or nvcc (independent check)")] = "nvrtc",
    flag: Annotated[list[str], typer.Option("--flag", help="extra compiler flag (repeatable)")] = [],
) -> None:
    """Compile one kernel alone (device code only) and print its resource report."""
    from optiml_engine.gpu.compile import compile_nvcc, compile_nvrtc

    if backend not in ("nvrtc", "nvcc"):
        raise fail(f"error: unknown backend '{backend}' (expected nvrtc or nvcc)")
    document = load_document(path)
    model = document.model
    if report_syntax(model):
        raise typer.Exit(EXIT_INPUT)
    chosen = select_kernel(model, kernel)
    template: dict[str, str] = {}
    if chosen.template_params:
        try:
            template = parse_contract(chosen, model.path).template
        except OptimlError as exc:
            raise fail(str(exc))
    try:
        unit = document.compile_unit(chosen.name, template)
    except OptimlError as exc:
        raise fail(str(exc))
    compiler = compile_nvcc if backend == "nvcc" else compile_nvrtc
    result = compiler(unit, arch=arch, flags=flag)
    print_compile_result(result, line_of(model.path, chosen))
    if not result.ok:
        missing_tool = not result.diagnostics and "not found" in result.log
        raise typer.Exit(EXIT_ENVIRONMENT if missing_tool else EXIT_INPUT)


def print_compile_result(result: CompileResult, where: str) -> None:
    for diagnostic in result.diagnostics:
        (err if diagnostic.severity == "error" else out).print(str(diagnostic), markup=False)
    if not result.ok:
        if not result.diagnostics:
            err.print(f"{where}: error: compile failed: {result.log.strip()}", markup=False)
        return
    usage = result.resources
    table = Table(title=f"{result.kernel} ({result.compiler_version}, {result.arch}, {result.seconds * 1000:.0f} ms)")
    for column in ("registers", "smem (static)", "stack frame", "spill stores", "spill loads", "barriers"):
        table.add_column(column, justify="right")
    if usage is not None:
        table.add_row(str(usage.registers), f"{usage.shared_bytes} B", f"{usage.stack_frame_bytes} B",
                      f"{usage.spill_store_bytes} B", f"{usage.spill_load_bytes} B", str(usage.barriers))
    out.print(table)
    if usage is not None and (usage.spill_store_bytes or usage.spill_load_bytes):
        out.print(f"{where}: warning: registers spill to local memory "
                  f"({usage.spill_store_bytes} B stored, {usage.spill_load_bytes} B loaded)", markup=False)



def gpu_pool(path: Path, why: str, devices: list[int] | None = None):
    """The started GPU workers; on a machine without a GPU, exit 2 with one located line that says `why` one is
    needed."""
    from optiml_engine.gpu.pool import NoDevice, WorkerPool

    try:
        return WorkerPool(devices)
    except NoDevice as exc:
        raise fail(f"{path}: error: {exc} (expected a machine with an NVIDIA GPU: {why})", EXIT_ENVIRONMENT)


@contextmanager
def measured(path: Path, kernel: str | None, no_cache: bool) -> Iterator[tuple]:
    """Load the kernel and its reference, start the GPU pool, verify and time: (evaluator, candidate, reference,
    measurement, where). Input errors exit 1, a machine without a GPU exits 2, both with one located line."""
    from optiml_engine.candidate import original_candidate, reference_candidate
    from optiml_engine.evaluate import Evaluator

    document = load_document(path)
    if report_syntax(document.model):
        raise typer.Exit(EXIT_INPUT)
    chosen = select_kernel(document.model, kernel)
    try:
        candidate = original_candidate(document, chosen.name)
        reference = reference_candidate(document, candidate)
    except OptimlError as exc:
        raise fail(str(exc))
    with gpu_pool(path, "parsing, contracts and `optiml compile` work without one") as pool:
        with out.status("measuring device ceilings (once per device)..."):
            evaluator = Evaluator(pool, use_cache=not no_cache)
        with out.status(f"verifying and timing {chosen.name} on {evaluator.device.name}..."):
            measurement = evaluator.evaluate(candidate, reference)
        yield evaluator, candidate, reference, measurement, line_of(document.model.path, chosen)


@app.command()
def check(
    path: Annotated[Path, typer.Argument(help="CUDA file")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="kernel name (optional with one kernel)")] = None,
    sanitize: Annotated[bool, typer.Option("--sanitize", help="also run compute-sanitizer memcheck and racecheck")] = False,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="write the Measurement as JSON here")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="measure again even if a result is cached")] = False,
) -> None:
    """Verify a kernel against its reference on fresh inputs and time it on the GPU (exit 1 when incorrect)."""
    with measured(path, kernel, no_cache) as (evaluator, candidate, reference, measurement, where):
        reports = []
        if sanitize and measurement.ok:
            with out.status("compute-sanitizer memcheck and racecheck..."):
                reports = evaluator.sanitize(candidate, reference)
    print_measurement(measurement, where)
    for report in reports:
        status = "[green]clean[/]" if report.ok else f"[red]{report.errors} errors[/]: {report.first_error}"
        out.print(f"compute-sanitizer {report.tool}: {status}")
    if json_out:
        json_out.write_text(measurement.model_dump_json(indent=2))
    if not measurement.ok or any(not r.ok for r in reports):
        raise typer.Exit(EXIT_INPUT)


def print_measurement(m: Measurement, where: str) -> None:
    if m.compile is not None and m.compile.resources is not None:
        usage = m.compile.resources
        out.print(f"compile: {m.compile.compiler_version} {m.compile.arch}, "
                  f"{usage.registers} registers, {usage.shared_bytes} B smem, "
                  f"{usage.spill_store_bytes + usage.spill_load_bytes} B spills")
    if m.checks:
        table = Table("size", "trials", "max rel err", "result", title="correctness")
        for c in m.checks:
            sizes = " ".join(f"{k}={v}" for k, v in c.binding.items())
            table.add_row(sizes, str(c.trials), f"{c.max_rel_err:.2e}", "[green]ok[/]" if c.ok else "[red]fail[/]")
        out.print(table)
    if not m.ok:
        err.print(f"{where}: error: {m.kernel} rejected ({m.verdict}): {m.reason}", markup=False)
        return
    if m.timing and m.sol:
        t, sol = m.timing, m.sol
        table = Table("median", "95% interval", "spread", "runs", "GB/s", "GFLOP/s", "SOL floor", "% of SOL",
                      title=f"timing on {m.device.name if m.device else '?'} (cold L2, CUDA events)")
        table.add_row(f"{t.median_ms:.4f} ms", f"{t.ci_low_ms:.4f}-{t.ci_high_ms:.4f}", f"±{t.spread_ms:.4f}",
                      str(t.runs), f"{sol.achieved_gbps:.0f}", f"{sol.achieved_gflops:.0f}",
                      f"{sol.floor_ms:.4f} ms ({sol.bound})", f"{sol.percent_of_sol:.1f}%")
        out.print(table)


@app.command()
def profile(
    path: Annotated[Path, typer.Argument(help="CUDA file")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="kernel name (optional with one kernel)")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="measure and profile again even if cached")] = False,
) -> None:
    """Verify, time and profile a kernel with Nsight Compute; print its diagnosis and metrics."""
    from optiml_engine.report import metric_rows

    with measured(path, kernel, no_cache) as (evaluator, candidate, _, measurement, where):
        if measurement.ok:
            with out.status("profiling with Nsight Compute..."):
                (result,) = evaluator.profile([(candidate, measurement)])
    print_measurement(measurement, where)
    if not measurement.ok:
        raise typer.Exit(EXIT_INPUT)
    out.print(f"[bold]{result.diagnosis.headline}[/]")
    out.print(result.diagnosis.explanation, markup=False)
    if result.metrics is not None:
        table = Table("metric", "value", title=f"Nsight Compute ({result.seconds:.1f} s)")
        for label, value in metric_rows(result.metrics.metrics):
            table.add_row(label, value)
        out.print(table)


@app.command()
def optimize(
    path: Annotated[Path, typer.Argument(help="CUDA file")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="kernel name (optional with one kernel)")] = None,
    budget: Annotated[int, typer.Option(help="candidates to evaluate at most")] = 60,
    time_limit: Annotated[float, typer.Option("--time", help="wall-time budget in seconds")] = 600.0,
    gpus: Annotated[Optional[str], typer.Option(help="CUDA device indices, e.g. 0,1 (default: all)")] = None,
    llm: Annotated[bool, typer.Option("--llm", help="also ask the configured OpenAI-compatible endpoint")] = False,
    write: Annotated[bool, typer.Option("--write", help="apply the verified result to the file")] = False,
    report: Annotated[Optional[Path], typer.Option(help="write an HTML report here")] = None,
    result_path: Annotated[Optional[Path], typer.Option("--result", help="result JSON (default FILE.optiml.json)")] = None,
    profile: Annotated[bool, typer.Option(help="profile nodes with Nsight Compute to guide the search")] = True,
    seed: Annotated[int, typer.Option(help="search seed")] = 0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="no GPU needed: the program, the static findings and "
                                                            "the first candidates, compiled")] = False,
) -> None:
    """Search for a faster kernel that computes the same thing; verified, timed, sanitized; shown as a diff. Without
    a GPU (or with --dry-run): what the search would start from, compiled but neither verified nor timed."""
    import threading

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from optiml_engine.dry_run import without_gpu
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.optimize import default_policies, optimize as run_optimize, source_hash
    from optiml_engine.report import html_report
    from optiml_engine.search.mcts import SearchBudget, SearchConfig

    document = load_document(path)
    if report_syntax(document.model):
        raise typer.Exit(EXIT_INPUT)
    chosen = select_kernel(document.model, kernel)
    try:
        document.contract(chosen.name)
        policies = default_policies(llm)
    except OptimlError as exc:
        raise fail(str(exc))
    try:
        devices = [int(i) for i in gpus.split(",")] if gpus else None
    except ValueError:
        raise fail(f"{path}: error: --gpus '{gpus}' is not a list of device indices (expected e.g. 0,1)")
    from optiml_engine.gpu.pool import NoDevice, WorkerPool
    if dry_run:
        print_dry_run(document, chosen.name, policies, "--dry-run")
        return
    try:
        pool = WorkerPool(devices)
    except NoDevice as exc:
        print_dry_run(document, chosen.name, policies, without_gpu(str(exc)))
        return
    stop = threading.Event()
    outcome: list = []
    with pool:
        evaluator = Evaluator(pool)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                            TextColumn("{task.fields[best]}"), TimeElapsedColumn(), console=out)
        task = progress.add_task(f"optimizing {chosen.name}", total=budget, best="")

        def on_progress(p) -> None:
            sol = f", {p.best_percent_of_sol:.0f}% of SOL" if p.best_percent_of_sol is not None else ""
            progress.update(task, completed=p.evaluated, best=f"best {p.best_speedup:.2f}x{sol}, {p.rejected} rejected")

        def job() -> None:
            outcome.append(run_optimize(document, chosen.name, evaluator, policies,
                                        SearchBudget(candidates=budget, seconds=time_limit),
                                        SearchConfig(parallel=len(pool.workers), seed=seed), profile=profile,
                                        progress=on_progress, stop=stop))

        error = interruptibly(job, progress, task, stop, "stopping (keeping the best so far)")
        ceilings = evaluator.ceilings
    if not outcome:
        raise fail(f"{path}: error: the optimization failed: {error!r}")
    result = outcome[0]
    result_file = result_path or path.with_name(path.name + ".optiml.json")
    result_file.write_text(result.model_dump_json(indent=2))
    if report:
        report.write_text(html_report(result, ceilings))
    table = Table("#", "rule", "edit", "ms", "speedup", "% of SOL", title=f"trajectory ({result.stop_reason})")
    for index, step in enumerate(result.trajectory, 1):
        table.add_row(str(index), step.rule, step.description, f"{step.time_ms:.4f}", f"{step.speedup:.2f}x",
                      "" if step.percent_of_sol is None else f"{step.percent_of_sol:.0f}%")
    out.print(table)
    for rejection in result.rejections:
        out.print(f"rejected: {rejection.rule}: {rejection.description}: {rejection.verdict}: {rejection.reason}",
                  markup=False)
    for note in result.notes:
        out.print(f"note: {note}", markup=False)
    if not result.accepted:
        out.print(f"no verified improvement to offer; result in {result_file}")
        return
    out.print(result.diff, markup=False)
    out.print(f"[green]verified[/]: {result.speedup:.2f}x faster than the original "
              f"({result.evaluated} candidates, {result.rejected} rejected); result in {result_file}")
    if write:
        if source_hash(path.read_text(encoding="utf-8")) != result.source_sha256:
            raise fail(f"{path}: error: the file changed while optimizing; not written (the diff is in {result_file})")
        path.write_text(result.new_text, encoding="utf-8")
        out.print(f"wrote {path}")


def interruptibly(work, progress, task, stop, stopping: str) -> BaseException | None:
    """`work` on a thread under the progress display; Ctrl-C sets `stop` (the work ends early, keeping what it has)
    and says `stopping`. Returns what the work raised, if anything."""
    import threading

    raised: list[BaseException] = []

    def guarded() -> None:
        try:
            work()
        except BaseException as error:   # noqa: BLE001 - returned to the caller, who says it
            raised.append(error)

    worker = threading.Thread(target=guarded, daemon=True)
    with progress:
        worker.start()
        while worker.is_alive():
            try:
                worker.join(0.2)
            except KeyboardInterrupt:
                stop.set()
                progress.update(task, description=stopping)
    return raised[0] if raised else None


@app.command("optimize-all")
def optimize_all(
    paths: Annotated[list[Path], typer.Argument(help="CUDA files or directories")],
    out_dir: Annotated[Path, typer.Option("--out", help="folder for the result files and the summary")] = Path(
        "optiml-results"),
    budget: Annotated[int, typer.Option(help="candidates a kernel at most")] = 60,
    time_limit: Annotated[float, typer.Option("--time", help="wall-time budget a kernel, in seconds")] = 600.0,
    cluster: Annotated[Optional[str], typer.Option(help="address of a running Ray cluster (default: this host)")] = None,
    workers: Annotated[Optional[int], typer.Option(help="searches at once (default: one per GPU)")] = None,
    llm: Annotated[bool, typer.Option("--llm", help="also ask the configured OpenAI-compatible endpoint")] = False,
    seed: Annotated[int, typer.Option(help="search seed")] = 0,
) -> None:
    """Optimize every kernel with a contract under PATHS: one search each, spread over every GPU (one worker each,
    on Ray; --cluster for several hosts), a result file per kernel and summary.html in --out. Interrupt with Ctrl-C
    and run again to resume: kernels whose result is there for the same source are not searched again."""
    import threading

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from optiml_engine.batch import BatchBudget, find_jobs, run_batch

    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise fail(f"{missing[0]}: error: no such file or directory")
    jobs, skipped = find_jobs(cuda_files(paths))
    for line in skipped:
        out.print(f"skipped: {line}", markup=False)
    if not jobs:
        raise fail("error: no kernel with an @optiml contract under " + ", ".join(str(p) for p in paths))
    stop = threading.Event()
    rows: list = []
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                        TimeElapsedColumn(), console=out)
    task = progress.add_task(f"optimizing {len(jobs)} kernels", total=len(jobs))

    def on_progress(row, done: int, total: int) -> None:
        progress.update(task, completed=done)
        if row is not None:
            speed = f"{row.speedup:.2f}x" if row.speedup else "no improvement offered"
            progress.console.print(f"{row.file}: {row.kernel}: {speed} ({row.evaluated} candidates, {row.worker})",
                                   markup=False)

    def batch() -> None:
        rows.extend(run_batch(jobs, skipped, out_dir, BatchBudget(candidates=budget, seconds=time_limit, llm=llm,
                                                                   seed=seed),
                              address=cluster, workers=workers, progress=on_progress, stop=stop))

    error = interruptibly(batch, progress, task, stop, "stopping: finished kernels are kept; run again to resume")
    if error is not None:
        raise fail(str(error) if isinstance(error, OptimlError) else f"error: the batch failed: {error!r}",
                   EXIT_ENVIRONMENT)
    offered = sum(row.accepted for row in rows)
    left = len(jobs) - len(rows)
    out.print(f"{offered} of {len(rows)} kernels improved (verified); {left} not searched yet; "
              f"summary in {out_dir / 'summary.html'}")


def print_dry_run(document, kernel: str, policies: list, why: str) -> None:
    """optimize's dry run: what the search would start from, on the terminal."""
    from rich.markdown import Markdown

    from optiml_engine.dry_run import dry_run, dry_run_markdown

    try:
        found = dry_run(document, kernel, policies)
    except OptimlError as exc:
        raise fail(str(exc))
    out.print(Markdown(dry_run_markdown(found, document.model.path, why)))


@app.command()
def generate(
    intent: Annotated[str, typer.Argument(help='what the kernel computes, e.g. "row-wise softmax of x (rows x cols) into y"')],
    output: Annotated[Path, typer.Option("--output", "-o", help="CUDA file to write (appended to when it exists)")],
    arch: Annotated[str, typer.Option(help="architecture of the compile check")] = "sm_90",
    llm: Annotated[bool, typer.Option("--llm", help="also ask the configured LLM (several strategies): for the "
                                                    "spec form of an intent the built-in readers refuse (when "
                                                    "enough strategies agree), and for kernels, the fastest "
                                                    "verified against the oracle winning (GPU)")] = False,
) -> None:
    """Write a first kernel for an intent: kernel, @optiml contract and NumPy reference oracle, compile-checked.
    `optiml check FILE` then verifies it against the oracle on a GPU, and `optiml optimize FILE` makes it fast."""
    from optiml_engine.generate.algorithm import first_kernel
    from optiml_engine.generate.families import compile_check, generate_kernel
    from optiml_engine.generate.intent import parse_intent
    from optiml_engine.generate.spec import spec_form

    try:
        spec = parse_intent(intent)
    except OptimlError as exc:
        if not llm:
            raise fail(str(exc))
        spec = llm_read(intent, exc)
    with out.status("writing the first schedule of its loop-nest program..."):
        generated = first_kernel(generate_kernel(spec), arch)
    before = output.read_text(encoding="utf-8") if output.exists() else ""
    if before and CudaDocument(before, str(output)).model.kernel(generated.kernel) is not None:
        raise fail(f"{output}:1:1: error: the file already has a kernel named {generated.kernel} (expected another "
                   f"output file, or other array names in the intent)")
    result = compile_check(generated, arch)
    if not result.ok:   # a generator defect, never the user's: say so rather than write a broken file
        raise fail(f"{output}: error: the generated kernel {generated.kernel} does not compile: {result.log.strip()}")
    if llm:
        generated = llm_generated(generated)
    if before:
        before = before.rstrip("\n") + "\n\n"
    output.write_text(before + generated.text, encoding="utf-8")
    out.print(f"[bold]{spec.family}[/] / {spec.operation}: kernel {generated.kernel} "
              f"({' '.join(f'{k}={v}' for k, v in spec.sizes.items())}, {spec.dtype})")
    for choice in spec.assumed:
        out.print(f"  assumed: {choice}", markup=False)
    if (exactly := spec_form(spec)) is not None and exactly != " ".join(intent.split()):
        out.print(f"  read as: {exactly}" + (f" (read by {spec.read_by}: check it)" if spec.read_by else ""),
                  markup=False)
    out.print(f"  reference: {generated.reference}", markup=False)
    out.print(f"  kernel: {generated.strategy}", markup=False)
    usage = result.resources
    out.print(f"wrote {output}: compiles ({result.compiler_version}, {arch}, {usage.registers if usage else '?'} "
              f"registers); next: optiml check {output}, optiml optimize {output}", markup=False)


def llm_settings():
    from optiml_engine.policies.llm import LlmSettings

    settings = LlmSettings.from_env()
    if settings is None:
        raise fail("<settings>:1:1: error: --llm asks for an LLM but none is configured (expected "
                   "OPTIML_LLM_BASE_URL and OPTIML_LLM_MODEL (and OPTIML_LLM_API_KEY) in the environment)")
    return settings


def llm_read(intent: str, refused: OptimlError):
    """The spec of an intent the built-in readers refused, as the LLM's reading strategies agree on it; the
    refusal, with each strategy's reading, when they do not."""
    from optiml_engine.generate.llm import llm_reading
    from optiml_engine.policies.llm import LlmPolicy

    policy = LlmPolicy(llm_settings())
    try:
        with out.status("the built-in readers refused the intent; asking the LLM for its spec form..."):
            reading = llm_reading(intent, refused.message, policy)
    finally:
        policy.close()
    for strategy, said in reading.readings:
        out.print(f"  llm reading {strategy}: {said}", markup=False)
    if reading.spec is None:
        raise fail(f"{refused}; the LLM's readings do not stand either: {reading.reason}")
    return reading.spec


def llm_generated(generated):
    """The generated kernel, replaced by the fastest LLM kernel that verifies against the oracle on the GPU (the
    built-in one, said, without a GPU)."""
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.generate.llm import GenerationLlm, llm_seed

    from optiml_engine.gpu.pool import NoDevice, WorkerPool

    settings = llm_settings()
    try:
        pool = WorkerPool()
    except NoDevice as exc:
        # As the editor does: the LLM's kernels are asked for only where they can be verified before one is written.
        out.print(f"  llm kernels: not asked ({exc}: they are verified against the oracle on a GPU before one is "
                  f"written); the built-in kernel is written", markup=False)
        return generated
    with pool:
        with out.status("asking the LLM and verifying its kernels..."):
            seeded, trials = llm_seed(generated, Evaluator(pool), GenerationLlm(settings, generated))
    for trial in trials:
        speedup = f", {trial.speedup:.2f}x the built-in kernel" if trial.speedup else ""
        out.print(f"  llm {trial.strategy}: {trial.outcome}{speedup}", markup=False)
    return seeded


if __name__ == "__main__":
    app()

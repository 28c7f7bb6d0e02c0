"""Times the language server's answers on a generated 5,000-line .cu file while an optimization job runs.

    python bench/lsp_bench.py [--lines 5000] [--requests 200] [--seed 0]

Starts the real server (`python -m server.app`) over stdio, its engine replaced through the OPTIML_TEST_ENGINE
testing hook by the tests' deterministic evaluator (50 ms an evaluation, no GPU), opens the file, starts
`optiml.optimize` on one of its kernels, and, while jobs run (each one that ends is followed by another on the next
kernel, so that one is always running), sends REQUESTS hovers on kernel names and REQUESTS code-action requests at
random kernels, one at a time in a shuffled order, timing each round trip. Prints p50/p95/max of each; the exit
status is non-zero when hover p95 >= 50 ms or code actions p95 >= 100 ms (the editor's budgets).

The client is a minimal JSON-RPC one over the pipes, so that what is timed is the server and the pipes, not a client
library's decoding. It also times hovers sent while the file's diagnostics are being computed (not gated).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parse_bench import generate_source

from optiml_engine.model import Kernel
from optiml_engine.source.parse import CudaDocument

REPO = Path(__file__).resolve().parents[1]
HOVER_P95_MS = 50.0
CODE_ACTION_P95_MS = 100.0
TEST_ENGINE = "tests.lsp.synthetic_engine:synthetic_engine"


class JsonRpcClient:
    """Requests with their round trips awaited, notifications to handlers by method; the server's own requests
    (registrations, progress tokens) are answered with a null result."""

    def __init__(self, process: asyncio.subprocess.Process):
        self._process = process
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self.handlers: dict[str, Callable[[dict], None]] = {}
        self._reader = asyncio.ensure_future(self._read())

    async def request(self, method: str, params: dict | None) -> object:
        number = next(self._ids)
        answer = self._waiting[number] = asyncio.get_running_loop().create_future()
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        message = await answer
        if "error" in message:
            raise RuntimeError(f"{method}: {message['error']}")
        return message.get("result")

    def notify(self, method: str, params: dict | None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self._process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        stream = self._process.stdout
        while True:
            length = 0
            while (header := await stream.readline()) not in (b"\r\n", b""):
                name, _, value = header.decode().partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if not header:
                return
            message = json.loads(await stream.readexactly(length))
            if "method" not in message:
                self._waiting.pop(message["id"]).set_result(message)
            elif "id" in message:
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif (handler := self.handlers.get(message["method"])) is not None:
                handler(message["params"])

    async def close(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        async with asyncio.timeout(10):
            await self._process.wait()
        self._reader.cancel()


def hover_params(uri: str, kernel: Kernel) -> dict:
    name = kernel.name_span.start   # the file is ASCII: byte columns are characters
    return {"textDocument": {"uri": uri}, "position": {"line": name.line, "character": name.column + 1}}


def percentiles(samples: list[float]) -> str:
    return (f"p50 {statistics.median(samples):6.1f} ms   p95 {p95(samples):6.1f} ms   "
            f"max {max(samples):6.1f} ms")


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def run(lines: int, requests: int, seed: int) -> int:
    source = generate_source(lines)
    workdir = Path(tempfile.mkdtemp(prefix="optiml-lsp-bench-"))
    path = workdir / "bench_generated.cu"
    path.write_text(source)
    uri = path.as_uri()
    kernels = CudaDocument(source, str(path)).model.kernels
    print(f"{source.count(chr(10))} lines, {len(kernels)} kernels")

    environment = {name: value for name, value in os.environ.items() if name != "OPTIML_GPUS"}
    environment.update(OPTIML_CACHE=str(workdir / "cache"), CUDA_VISIBLE_DEVICES="", OPTIML_TEST_ENGINE=TEST_ENGINE,
                       PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.app", cwd=REPO, env=environment,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2 ** 24)
    client = JsonRpcClient(process)

    diagnosed = asyncio.Event()
    client.handlers["textDocument/publishDiagnostics"] = lambda params: diagnosed.set()
    errors: list[str] = []
    progress: list[dict] = []
    client.handlers["$/progress"] = progress.append
    client.handlers["window/showMessage"] = lambda params: params["type"] == 1 and errors.append(params["message"])

    started = time.perf_counter()
    await client.request("initialize", {"processId": os.getpid(), "rootUri": REPO.as_uri(), "capabilities": {
        "window": {"workDoneProgress": True},
        "textDocument": {"hover": {"contentFormat": ["markdown"]},
                         "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
                             "", "quickfix", "refactor", "refactor.rewrite"]}}}}}})
    client.notify("initialized", {})
    print(f"server started and initialized in {(time.perf_counter() - started) * 1000:.0f} ms")
    started = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda-cpp", "version": 1, "text": source}})
    # the diagnostics of a new text take seconds (the lints parse the file once per kernel): hover meanwhile
    while_diagnosing = []
    while not diagnosed.is_set() and len(while_diagnosing) < requests:
        sent = time.perf_counter()
        await client.request("textDocument/hover", hover_params(uri, kernels[len(while_diagnosing) % len(kernels)]))
        while_diagnosing.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.05)
    await asyncio.wait_for(diagnosed.wait(), 120)
    print(f"opened; diagnostics published after {(time.perf_counter() - started) * 1000:.0f} ms "
          f"(150 ms of it the debounce)")
    print(f"hover while they were computed ({len(while_diagnosing)}): {percentiles(while_diagnosing)}")

    # one job at a time, always: each that ends starts the next, on the next kernel
    jobs = itertools.cycle(kernel.name for kernel in kernels)
    finished: list[dict] = []
    stopping = False

    def start_job() -> None:
        asyncio.ensure_future(client.request("workspace/executeCommand",
                                             {"command": "optiml.optimize", "arguments": [uri, next(jobs)]}))

    def job_ended(params: dict) -> None:
        finished.append(params)
        if not stopping:
            start_job()

    client.handlers["optiml/result"] = job_ended
    start_job()
    await asyncio.sleep(0.5)   # the engine is built on the first job: let it start evaluating

    rng = random.Random(seed)
    work = [("hover", rng.choice(kernels)) for _ in range(requests)]
    work += [("code action", rng.choice(kernels)) for _ in range(requests)]
    rng.shuffle(work)
    timings: dict[str, list[float]] = {"hover": [], "code action": []}
    reports_before = len(progress)
    for kind, kernel in work:
        if kind == "hover":
            method, params = "textDocument/hover", hover_params(uri, kernel)
        else:
            where = hover_params(uri, kernel)["position"]
            method, params = "textDocument/codeAction", {"textDocument": {"uri": uri},
                                                         "range": {"start": where, "end": where},
                                                         "context": {"diagnostics": []}}
        sent = time.perf_counter()
        answer = await client.request(method, params)
        timings[kind].append((time.perf_counter() - sent) * 1000)
        if not answer:
            raise SystemExit(f"{method} at {kernel.name} got no answer")
    stopping = True
    jobs_during, reports = len(finished) + 1, len(progress) - reports_before
    await client.close()

    if errors:
        raise SystemExit(f"the server reported errors: {errors}")
    print(f"{jobs_during} optimization job(s) ran during the {2 * requests} requests, one at a time "
          f"({reports} progress reports meanwhile)")
    if not reports:
        raise SystemExit("no job reported progress while the requests ran")
    print(f"hover        ({requests}): {percentiles(timings['hover'])}")
    print(f"code actions ({requests}): {percentiles(timings['code action'])}")
    missed = [f"hover p95 {p95(timings['hover']):.1f} ms >= {HOVER_P95_MS:.0f} ms"] * (
        p95(timings["hover"]) >= HOVER_P95_MS)
    missed += [f"code actions p95 {p95(timings['code action']):.1f} ms >= {CODE_ACTION_P95_MS:.0f} ms"] * (
        p95(timings["code action"]) >= CODE_ACTION_P95_MS)
    for line in missed:
        print(f"over budget: {line}", file=sys.stderr)
    return 1 if missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=200, help="hovers, and as many code-action requests")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    return asyncio.run(run(args.lines, args.requests, args.seed))


if __name__ == "__main__":
    sys.exit(main())

"""What the stream gate (optiml_engine/gpu/gate.py) changes in event-timed samples: small kernels (the naive ones
and the schedule policy's first proposals), each timed with the evaluator's launch sequence (inout restored, L2
flushed, events around the launch) held and not held, with the CPU idle and with every core busy. One process, one
device; medians of 50."""
import datetime, json, multiprocessing, os, statistics, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.gpu.data import make_inputs, poisoned
from optiml_engine.gpu.worker import CompiledKernel, Device, launch
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.schedules import SchedulePolicy
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

FILES = sys.argv[2:]
RUNS = 50


def spin(_):
    while True:
        pass


def samples(device, kernel, resolved, buffers, pristine, held):
    cp = device.cp
    out = []
    for _ in range(RUNS):
        for name, value in pristine.items():
            buffers[name][...] = value
        device.flush_l2()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        if held:
            with device.gate.held():
                start.record(); launch(device, kernel, resolved, buffers); stop.record()
        else:
            start.record(); launch(device, kernel, resolved, buffers); stop.record()
        stop.synchronize()
        out.append(cp.cuda.get_elapsed_time(start, stop))
    return round(statistics.median(out), 5)


def main():
    device = Device(0)
    cp = device.cp
    policy = SchedulePolicy()
    context = PolicyContext(device=device.info)
    kernels = []
    for path in FILES:
        doc = CudaDocument((ROOT / path).read_text(), path)
        plain = original_candidate(doc, doc.model.kernels[0].name)
        proposals = [e.candidate for e in policy.propose(plain, context)]
        # The scatter reductions' own schedules where there are (their map schedules keep an atomic per point).
        proposals = ([c for c in proposals if "privatize" in c.description] or proposals)[:3]
        for i, candidate in enumerate([plain] + proposals):
            compiled = compile_nvrtc(candidate.unit, arch=device.info.arch())
            kernel = CompiledKernel(key=f"{path}-{i}", cubin=compiled.cubin, lowered_name=compiled.lowered_name,
                                    params=candidate.params, contract=candidate.contract)
            resolved = resolve(candidate.contract, candidate.contract.sizes)
            inputs = make_inputs(cp, candidate.contract.arrays, resolved.lengths, 1)
            buffers = {s.param: inputs[s.param] if s.direction != "out" else
                       poisoned(cp, s.dtype, resolved.lengths[s.param], 0) for s in candidate.contract.arrays}
            pristine = {s.param: inputs[s.param].copy() for s in candidate.contract.arrays if s.direction == "inout"}
            kernels.append((plain.unit.kernel, "naive" if i == 0 else candidate.description[:90], kernel, resolved,
                            buffers, pristine))
    rows = []
    for load in ("idle", "busy"):
        pool = multiprocessing.Pool(os.cpu_count()) if load == "busy" else None
        if pool:
            pool.map_async(spin, range(os.cpu_count()))
        for name, what, kernel, resolved, buffers, pristine in kernels:
            samples(device, kernel, resolved, buffers, pristine, True)  # warm
            row = {"kernel": name, "candidate": what, "cpu": load,
                   "unheld_ms": samples(device, kernel, resolved, buffers, pristine, False),
                   "held_ms": samples(device, kernel, resolved, buffers, pristine, True)}
            rows.append(row)
            print(row, flush=True)
        if pool:
            pool.terminate()
    Path(sys.argv[1]).write_text(json.dumps({"device": device.info.name, "command": " ".join(sys.argv),
                                             "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                                             "rows": rows}, indent=1))
    print("| kernel | candidate | cpu | unheld ms | held ms |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['kernel']} | {r['candidate'][:60]} | {r['cpu']} | {r['unheld_ms']} | {r['held_ms']} |")


if __name__ == '__main__':
    main()

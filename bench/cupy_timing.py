"""The probes' timing (bench/window_probe.py, bench/flush_probe.py): CUDA events around one launch after `flush`,
the median in microseconds; CuPy only, for scripts that time hand-written kernels outside the evaluator."""

import cupy as cp


def median_us(launch, flush, runs: int, warmups: int = 3) -> float:
    for _ in range(warmups):
        flush()
        launch()
    samples = []
    for _ in range(runs):
        flush()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        samples.append(cp.cuda.get_elapsed_time(start, stop))
    return sorted(samples)[runs // 2] * 1000

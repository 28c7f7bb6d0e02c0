"""The stream gate on a real GPU: a host that is slow to enqueue a launch adds its delay to an event-timed sample,
unless the stream is held until the launch is enqueued. Skipped without a CUDA device."""

import time

import pytest

pytestmark = pytest.mark.gpu
HOST_DELAY_S = 0.005


def timed(cp, kernel, gate=None) -> float:
    """One event-timed launch of a one-block kernel with the host sleeping between the start event and the launch."""
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    out = cp.zeros(1, dtype=cp.float32)

    def enqueue():
        start.record()
        time.sleep(HOST_DELAY_S)
        kernel((1,), (32,), (out,))
        stop.record()

    if gate is None:
        enqueue()
    else:
        with gate.held():
            enqueue()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop)


def test_held_stream_times_the_launch_not_the_host():
    import cupy as cp

    from optiml_engine.gpu.gate import StreamGate

    kernel = cp.RawKernel(r'extern "C" __global__ void one(float* out) { if (threadIdx.x == 0) out[0] = 1.0f; }',
                          "one")
    gate = StreamGate(cp)
    timed(cp, kernel)  # load the module outside the samples
    unheld = [timed(cp, kernel) for _ in range(5)]
    held = [timed(cp, kernel, gate) for _ in range(5)]
    assert min(unheld) >= 0.8 * HOST_DELAY_S * 1e3, unheld
    assert max(held) < 0.2 * HOST_DELAY_S * 1e3, held
    assert not gate.last_hold_timed_out()


def test_a_gate_left_closed_gives_up_after_its_timeout():
    import cupy as cp

    from optiml_engine.gpu.gate import StreamGate

    gate = StreamGate(cp, timeout_s=0.05)
    began = time.perf_counter()
    with gate.held():
        cp.cuda.runtime.deviceSynchronize()  # waits on the hold itself: only the timeout ends it
    assert gate.last_hold_timed_out()
    assert 0.04 < time.perf_counter() - began < 1.0

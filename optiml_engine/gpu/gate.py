"""A stream gate: a one-thread kernel that holds the legacy default stream until the host has enqueued a timed launch.

Event timing measures the GPU's timeline from the start event to the stop event. When the host is slower to enqueue
the launch than the GPU is to reach the start event (the L2 flush before it already done; Python's launch overhead
of tens of microseconds; a CPU shared with compiler processes), the GPU waits idle inside the timed window and the
wait is counted as the kernel's time: for a 10-microsecond kernel that can be most of the number, and it varies with
the host's load, not with the kernel. Holding the stream until start, launch and stop are all enqueued (nvbench's
blocking kernel) times what the GPU does between the events and nothing the host does.

The flag lives in mapped pinned host memory, which the device reads through the same pointer (unified addressing);
the hold gives up after a timeout so that a host that never opens the gate cannot hang the device.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

HOLD_KERNEL = "optiml_stream_hold"
HOLD_SOURCE = r"""
extern "C" __global__ void optiml_stream_hold(const volatile int* open, unsigned long long timeout_ns,
                                              int* timed_out) {
    unsigned long long began, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(began));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (*open == 0 && now - began < timeout_ns);
    *timed_out = *open == 0;
}
"""


class StreamGate:
    """`with gate.held(): start.record(); launch(); stop.record()` - the three run on the GPU back to back."""

    def __init__(self, cp: Any, timeout_s: float = 1.0):
        self._cp = cp
        self._timeout_ns = int(timeout_s * 1e9)
        # Two ints: the gate's flag (host writes, device reads) and whether the last hold timed out (device writes).
        self._memory = cp.cuda.runtime.hostAlloc(8, cp.cuda.runtime.hostAllocMapped)
        self._open = ctypes.c_int.from_address(self._memory)
        self._timed_out = ctypes.c_int.from_address(self._memory + 4)
        self._kernel = cp.RawKernel(HOLD_SOURCE, HOLD_KERNEL)
        self._open.value = 1
        self._hold()  # compile and load now, not inside the first timed launch
        cp.cuda.runtime.deviceSynchronize()

    def _hold(self) -> None:
        cp = self._cp
        self._kernel((1,), (1,), (cp.uint64(self._memory), cp.uint64(self._timeout_ns),
                                  cp.uint64(self._memory + 4)))

    @contextmanager
    def held(self) -> Iterator[None]:
        self._open.value = 0
        self._hold()
        try:
            yield
        finally:
            self._open.value = 1

    def last_hold_timed_out(self) -> bool:
        """After a synchronize: whether the last hold gave up before the host opened it (its sample holds a gap)."""
        return bool(self._timed_out.value)

"""bench/search_bench.py's union of runs: the must-hold figures over the examples, a kernel run again in a later run
counting with its later row only."""

from tests.benches import bench_module


def search_bench():
    return bench_module("search_bench")


def row(kernel: str, versus: float, low: float, time_over_sol: float, slower: bool = False) -> dict:
    measured = {"verdict": "ok", "speedup": 0.9 if slower else 2.0, "speedup_ci": [1.0, 1.0],
                "time_over_sol": time_over_sol}
    return {"kernel": kernel, "accepted": True, "applied": measured, "naive": measured,
            "versus_single": {"verdict": "ok", "speedup": versus, "speedup_ci": [low, versus + 0.01],
                              "time_over_sol": time_over_sol},
            "evaluated": 30, "search_seconds": 60.0, "job_seconds": 80.0}


def test_union_takes_a_kernels_last_run_and_counts_wins_by_the_interval():
    bench = search_bench()
    first = {"examples": [row("a", 0.95, 0.94, 1.2), row("b", 1.05, 1.02, 1.5)]}
    again = {"examples": [row("a", 1.02, 1.01, 1.05), row("c", 1.004, 0.999, 1.0)]}
    text = bench.union([first, again])
    assert "## Over 3 examples (2 run(s))" in text
    assert "2 of 3: a, b" in text       # a counts with its later row (a win); c's interval reaches below 1
    geomean = (1.5 * 1.05 * 1.0) ** (1 / 3)
    assert f"{geomean:.3f}x" in text
    assert "candidates evaluated per minute of search, over all examples: 30" in text

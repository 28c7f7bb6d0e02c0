"""The lift reads each example however its loops and sums are spelled (bench/respell_probe.py): every spelling of
SPELLINGS that changes an example lifts, and the spellings change the examples (so that the probe probes)."""

from __future__ import annotations

from pathlib import Path

from tests.benches import bench_module

ROOT = Path(__file__).resolve().parents[2]


def test_every_spelling_of_every_example_lifts() -> None:
    probe = bench_module("respell_probe")
    found = probe.probe(sorted((ROOT / "examples").glob("*.cu")))
    refused = [(name, row["file"], row["why"]) for name, rows in found.items() for row in rows if not row["lifted"]]
    assert not refused, refused
    applied = {name for name, rows in found.items() if rows}
    assert len(applied) >= 7, sorted(set(probe.SPELLINGS) - applied)

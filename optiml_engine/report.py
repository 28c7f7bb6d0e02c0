"""Text a person reads: the profile summary shown by `optiml profile` and, as markdown, by the editor's hover."""

from __future__ import annotations

from optiml_engine.evaluate import Profile
from optiml_engine.model import Measurement

# (label, metric short name, format) for the metrics table, in reading order.
METRIC_ROWS = (
    ("duration", "duration_ns", lambda v: f"{v / 1e6:.4f} ms"),
    ("DRAM throughput", "dram_pct", lambda v: f"{v:.0f}% of peak"),
    ("L2 throughput", "l2_pct", lambda v: f"{v:.0f}% of peak"),
    ("SM throughput", "sm_pct", lambda v: f"{v:.0f}% of peak"),
    ("achieved occupancy", "achieved_occupancy_pct", lambda v: f"{v:.0f}%"),
    ("theoretical occupancy", "theoretical_occupancy_pct", lambda v: f"{v:.0f}%"),
    ("registers / thread", "registers_per_thread", lambda v: f"{v:.0f}"),
    ("grid x block", "grid_size", None),
    ("DRAM bytes", "dram_read_bytes", None),
    ("global load sectors / request", "global_load_requests", None),
    ("global store sectors / request", "global_store_requests", None),
    ("shared bank conflicts", "shared_load_bank_conflicts", None),
)


def metric_rows(metrics: dict[str, float]) -> list[tuple[str, str]]:
    rows = []
    for label, name, fmt in METRIC_ROWS:
        if name not in metrics:
            continue
        if name == "grid_size":
            value = f"{metrics['grid_size']:,.0f} x {metrics.get('block_size', 0):.0f}"
        elif name == "dram_read_bytes":
            value = f"{metrics['dram_read_bytes'] / 1e6:,.0f} MB read, {metrics.get('dram_write_bytes', 0) / 1e6:,.0f} MB written"
        elif name.endswith("_requests"):
            kind = "load" if "load" in name else "store"
            requests = metrics[name]
            value = f"{metrics.get(f'global_{kind}_sectors', 0) / requests:.1f}" if requests else "-"
        elif name == "shared_load_bank_conflicts":
            value = f"{metrics[name] + metrics.get('shared_store_bank_conflicts', 0):,.0f}"
        else:
            value = fmt(metrics[name])
        rows.append((label, value))
    return rows


def profile_markdown(measurement: Measurement, profile: Profile) -> str:
    """What the hover shows: the diagnosis, time and % of SOL, then the metrics."""
    lines = [f"**{measurement.kernel}**: {profile.diagnosis.headline}", ""]
    if measurement.timing and measurement.sol:
        lines.append(f"{measurement.timing.median_ms:.4f} ms ± {measurement.timing.spread_ms:.4f}, "
                     f"{measurement.sol.percent_of_sol:.0f}% of the speed-of-light floor "
                     f"({measurement.sol.floor_ms:.4f} ms, {measurement.sol.bound}-bound) on "
                     f"{measurement.device.name if measurement.device else 'the GPU'}")
        lines.append("")
    lines.append(profile.diagnosis.explanation)
    if profile.metrics is not None:
        lines += ["", "| metric | value |", "|---|---|"]
        lines += [f"| {label} | {value} |" for label, value in metric_rows(profile.metrics.metrics)]
    return "\n".join(lines)

"""Text a person reads: the profile summary shown by `optiml profile` and, as markdown, by the editor's hover."""

from __future__ import annotations

from html import escape

from optiml_engine.evaluate import Profile
from optiml_engine.generate.algorithm import algorithm
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import NotLiftable
from optiml_engine.ir.schedule import shape_of
from optiml_engine.model import Candidate, Measurement

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


def program_markdown(candidate: Candidate) -> str:
    """The kernel's loop-nest program and the schedule families the search may take for it, or why it has none."""
    try:
        program = lift(algorithm(candidate))
    except Exception as error:   # noqa: BLE001 - the hover says so rather than failing
        return f"The loop-nest reader failed on this kernel ({type(error).__name__}: {error}); please report it."
    if isinstance(program, NotLiftable):
        return (f"Not a loop-nest program (line {program.location.line}: {program.reason}): the search tries the "
                f"rewrite rules and templates only.")
    shape = shape_of(program)
    families = {"map": "map (block shape, points per thread, vector accesses)",
                "reduce": f"reduce (a thread group per point along its loops, lanes along {shape.lanes_axis})",
                "stage": "stage (strided reads through a shared-memory tile)",
                "privatize": "privatize (atomics summed per thread or per block before one atomic)",
                "contraction": "contraction (shared-memory tiles of both operands, a tile of outputs per thread)",
                "scan": "scan (a warp per point, the carried value scanned across lanes)",
                "stream": "stream (a thread per point walking its loop through shared-memory windows of its rows)"}
    return (f"**Loop-nest program**; schedules the search takes: "
            f"{'; '.join(families[family] for family in shape.families)}\n\n```\n{program}\n```")


def svg_line_chart(points: list[tuple[float, float]], x_label: str, y_label: str, width: int = 560,
                   height: int = 260) -> str:
    """A small self-contained SVG line chart (no scripts, no network)."""
    if not points:
        return "<p>no data</p>"
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs) or 1, 0.0, max(ys) * 1.05 or 1
    pad = 44

    def sx(x: float) -> float:
        return pad + (x - x0) / ((x1 - x0) or 1) * (width - 2 * pad)

    def sy(y: float) -> float:
        return height - pad - (y - y0) / ((y1 - y0) or 1) * (height - 2 * pad)

    path = " ".join(f"{'M' if i == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for i, (x, y) in enumerate(points))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
            f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>'
            f'<path d="{path}" fill="none" stroke="#2563eb" stroke-width="2"/>'
            f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle" font-size="12">{x_label}</text>'
            f'<text x="12" y="{height / 2}" font-size="12" transform="rotate(-90 12 {height / 2})" '
            f'text-anchor="middle">{y_label}</text>'
            f'<text x="{pad - 4}" y="{sy(y1) + 4:.1f}" font-size="10" text-anchor="end">{y1:.3g}</text>'
            f'<text x="{pad - 4}" y="{height - pad}" font-size="10" text-anchor="end">0</text>'
            f'<text x="{width - pad}" y="{height - pad + 14}" font-size="10" text-anchor="end">{x1:.0f}</text>'
            "</svg>")


def svg_roofline(ceiling_gbps: float, ceiling_gflops: float, steps: list[tuple[str, float, float]],
                 width: int = 560, height: int = 300) -> str:
    """Log-log roofline: the memory roof (intensity x bandwidth) and the compute roof, with each step of the
    trajectory at (arithmetic intensity, achieved GFLOP/s)."""
    import math

    if not steps:
        return "<p>no data</p>"
    pad = 48
    intensities = [s[1] for s in steps if s[1] > 0] or [1.0]
    lo_x, hi_x = math.log10(min(intensities)) - 1, math.log10(max(intensities)) + 2
    hi_y = math.log10(ceiling_gflops) + 0.3
    lo_y = min([math.log10(max(s[2], 1e-3)) for s in steps] + [hi_y - 4]) - 0.3

    def sx(intensity: float) -> float:
        return pad + (math.log10(intensity) - lo_x) / (hi_x - lo_x) * (width - 2 * pad)

    def sy(gflops: float) -> float:
        return height - pad - (math.log10(max(gflops, 1e-3)) - lo_y) / (hi_y - lo_y) * (height - 2 * pad)

    roof = []
    for k in range(61):
        intensity = 10 ** (lo_x + (hi_x - lo_x) * k / 60)
        roof.append(f"{'M' if k == 0 else 'L'}{sx(intensity):.1f},{sy(min(ceiling_gflops, intensity * ceiling_gbps)):.1f}")
    dots = "".join(f'<circle cx="{sx(max(i, 1e-3)):.1f}" cy="{sy(g):.1f}" r="4" fill="#dc2626"><title>{label}: '
                   f'{g:,.0f} GFLOP/s</title></circle>' for label, i, g in steps)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
            f'<path d="{" ".join(roof)}" fill="none" stroke="#111" stroke-width="2"/>{dots}'
            f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle" font-size="12">arithmetic intensity '
            f'(FLOP/byte, log)</text><text x="12" y="{height / 2}" font-size="12" '
            f'transform="rotate(-90 12 {height / 2})" text-anchor="middle">GFLOP/s (log)</text></svg>')


def rejected_rows(result) -> str:
    """The candidates that failed verification, and why: a rule that produced one is a bug to report."""
    if not result.rejections:
        return ""
    rows = "".join(f"<tr><td>{escape(r.rule)}</td><td>{escape(r.description)}</td><td>{escape(r.verdict)}</td>"
                   f"<td>{escape(r.reason)}</td></tr>" for r in result.rejections)
    return (f"<h2>Rejected candidates</h2><table><tr><th>rule</th><th>edit</th><th>verdict</th><th>reason</th></tr>"
            f"{rows}</table>\n")


def html_report(result, ceilings) -> str:
    """A one-file HTML report of an optimization: summary, trajectory, best time per candidate, roofline, rejected
    candidates, diff."""
    original_ms = result.original.timing.median_ms if result.original.timing else None
    rows = "".join(f"<tr><td>{i + 1}</td><td>{escape(s.rule)}</td><td>{escape(s.description)}</td>"
                   f"<td>{s.time_ms:.4f}</td><td>{s.speedup:.2f}x</td>"
                   f"<td>{'' if s.percent_of_sol is None else f'{s.percent_of_sol:.0f}%'}</td>"
                   f"<td>{escape(s.diagnosis_before or '')}</td></tr>" for i, s in enumerate(result.trajectory))
    best_curve = svg_line_chart([(n, ms) for n, _, ms in result.history], "candidates evaluated", "best time (ms)")
    sol = result.original.sol
    intensity = sol.flops / sol.bytes if sol and sol.bytes else 0.0
    points = [("original", intensity, sol.achieved_gflops if sol else 0.0)]
    points += [(s.rule, intensity, sol.flops / (s.time_ms * 1e-3) / 1e9 if sol else 0.0) for s in result.trajectory]
    roofline = svg_roofline(ceilings.copy_gbps, ceilings.fp32_tflops * 1000, points) if intensity > 0 else \
        "<p>the contract counts no FLOPs: the kernel is placed by bandwidth only</p>"
    speedup = f"{result.speedup:.2f}x" if result.speedup else "none"
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>OptiML: {escape(result.kernel)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto}}td,th{{border-bottom:1px solid #ddd;
padding:4px 8px;text-align:left}}pre{{background:#f6f8fa;padding:1em;overflow:auto}}</style></head><body>
<h1>{escape(result.kernel)} <small>({escape(result.path)})</small></h1>
<p>{'Accepted' if result.accepted else 'Not accepted'}: final speedup {speedup} over the original
({original_ms or 0:.4f} ms), {result.evaluated} candidates evaluated, {result.rejected} rejected; stopped: {escape(result.stop_reason)};
device {escape(result.device.name if result.device else '?')}, {escape(result.date)}.</p>
{''.join(f'<p><b>Note:</b> {escape(n)}</p>' for n in result.notes)}
<h2>Trajectory</h2><table><tr><th>#</th><th>rule</th><th>edit</th><th>ms</th><th>speedup</th><th>% of SOL</th>
<th>diagnosis before</th></tr>{rows}</table>
<h2>Best time vs candidates evaluated</h2>{best_curve}
<h2>Roofline</h2>{roofline}
{rejected_rows(result)}<h2>Diff</h2><pre>{escape(result.diff) or 'no change'}</pre></body></html>"""

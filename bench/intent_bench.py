"""How intents nobody designed the parser against are read (issue 17: zero misreadings): every intent of
tests/heldout/intents_kernelbench.py parsed (`parse_intent`, words or spec form) and compared, names aside, with the
spec form it must be read as, or with a refusal where OptiML must refuse.

    python bench/intent_bench.py OUT.json

Right: read as expected. Refused: an IntentError (acceptable for any intent; counted apart where a reading was
expected). Misread: a spec other than the expected one, or any spec where a refusal was expected.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.generate.intent import ELEMENTWISE_FUNCTIONS, INTENT, IntentError, parse_intent  # noqa: E402
from optiml_engine.generate.spec import spec_form  # noqa: E402
from optiml_engine.source.expr import parse_expr  # noqa: E402
from tests.heldout.intents_kernelbench import KERNELBENCH_INTENTS  # noqa: E402


def nameless(spec) -> dict:
    """The spec with its arrays named by position (inputs a0, a1..., the output out)."""
    names = {name: f"a{i}" for i, name in enumerate(spec.inputs)} | {spec.output: "out"}

    def renamed(text: str) -> str:
        return re.sub(r"[A-Za-z_]\w*", lambda m: names.get(m.group(), m.group()), text)

    expression = None
    if spec.expression is not None:
        expression = renamed(str(parse_expr(spec.expression, INTENT, ELEMENTWISE_FUNCTIONS)))
    sizes = spec.sizes
    if spec.family == "elementwise" and not spec.row_vectors:
        sizes = {"n": math.prod(sizes.values())}     # element by element, rows x cols is n = rows * cols
    return {"family": spec.family, "operation": spec.operation, "sizes": sizes, "dtype": spec.dtype,
            "inputs": len(spec.inputs), "expression": expression,
            "row_vectors": sorted(names[n] for n in spec.row_vectors), "scalars": spec.scalars, "axes": spec.axes,
            "transpose_b": spec.transpose_b, "reverse": spec.reverse, "exclusive": spec.exclusive}


def main() -> int:
    rows = []
    for intent, expected in KERNELBENCH_INTENTS:
        try:
            spec = parse_intent(intent)
        except IntentError as refused:
            rows.append({"intent": intent, "expected": expected, "outcome": "refused", "said": refused.message})
            continue
        read_as = spec_form(spec) or f"{spec.family}/{spec.operation} {spec.sizes}"
        right = expected is not None and nameless(spec) == nameless(parse_intent(expected))
        rows.append({"intent": intent, "expected": expected, "read_as": read_as,
                     "outcome": "right" if right else "misread"})
    counts = {o: sum(r["outcome"] == o for r in rows) for o in ("right", "refused", "misread")}
    expected_readings = sum(e is not None for _, e in KERNELBENCH_INTENTS)
    Path(sys.argv[1]).write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "command": "python bench/intent_bench.py OUT.json", "counts": counts, "intents": len(rows),
        "readings_expected": expected_readings, "rows": rows}, indent=1))
    for row in rows:
        if row["outcome"] != "right":
            print(f"{row['outcome']:8} {row['intent']}\n         expected: {row['expected']}\n"
                  f"         got: {row.get('read_as') or row.get('said')}")
    print(f"\n{len(rows)} intents: {counts['right']} read right, {counts['refused']} refused "
          f"({sum(r['outcome'] == 'refused' and r['expected'] is None for r in rows)} of them meant to be), "
          f"{counts['misread']} misread")
    return 0


if __name__ == "__main__":
    sys.exit(main())

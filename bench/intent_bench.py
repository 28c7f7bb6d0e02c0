"""How intents nobody designed the parser against are read (issue 17: zero misreadings): every intent of
tests/heldout/intents_kernelbench.py (or, with `--set styles`, intents_styles.py) parsed (`parse_intent`, words or spec form) and compared, names aside, with the
spec form it must be read as, or with a refusal where OptiML must refuse.

    python bench/intent_bench.py OUT.json [--set kernelbench|styles|third|fourth|fifth|sixth|seventh|eighth|ninth]

Right: read as expected. Refused: an IntentError (acceptable for any intent; counted apart where a reading was
expected). Misread: a spec other than the expected one, or any spec where a refusal was expected. Key unread: the
set's expected spec form does not parse itself (a set written without running OptiML), the intent's reading shown.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.generate.intent import IntentError, parse_intent, reading_key  # noqa: E402
from optiml_engine.generate.spec import spec_form  # noqa: E402
from tests.heldout.intents_kernelbench import KERNELBENCH_INTENTS  # noqa: E402

from tests.heldout.intents_styles import STYLE_INTENTS  # noqa: E402
from tests.heldout3.intents_third import THIRD_INTENTS  # noqa: E402
from tests.heldout4.intents_fourth import FOURTH_INTENTS  # noqa: E402
from tests.heldout5.intents_fifth import FIFTH_INTENTS  # noqa: E402
from tests.heldout6.intents_sixth import SIXTH_INTENTS  # noqa: E402
from tests.heldout7.intents_seventh import SEVENTH_INTENTS  # noqa: E402
from tests.heldout8.intents_eighth import EIGHTH_INTENTS  # noqa: E402
from tests.heldout9.intents_ninth import NINTH_INTENTS  # noqa: E402

SETS = {"kernelbench": KERNELBENCH_INTENTS, "styles": STYLE_INTENTS, "third": THIRD_INTENTS,
        "fourth": FOURTH_INTENTS, "fifth": FIFTH_INTENTS,
        "sixth": SIXTH_INTENTS, "seventh": SEVENTH_INTENTS,
        "eighth": EIGHTH_INTENTS, "ninth": NINTH_INTENTS}

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", choices=sorted(SETS), default="kernelbench")
    args = parser.parse_args()
    intents = SETS[args.set]
    rows = []
    for intent, expected in intents:
        try:
            spec = parse_intent(intent)
        except IntentError as refused:
            rows.append({"intent": intent, "expected": expected, "outcome": "refused", "said": refused.message})
            continue
        read_as = spec_form(spec) or f"{spec.family}/{spec.operation} {spec.sizes}"
        try:
            key = parse_intent(expected) if expected is not None else None
        except IntentError as unread:
            rows.append({"intent": intent, "expected": expected, "read_as": read_as, "outcome": "key unread",
                         "said": unread.message})
            continue
        right = key is not None and reading_key(spec) == reading_key(key)
        rows.append({"intent": intent, "expected": expected, "read_as": read_as,
                     "outcome": "right" if right else "misread"})
    counts = {o: sum(r["outcome"] == o for r in rows) for o in ("right", "refused", "misread", "key unread")}
    expected_readings = sum(e is not None for _, e in intents)
    args.out.write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "command": f"python bench/intent_bench.py OUT.json --set {args.set}", "counts": counts, "intents": len(rows),
        "readings_expected": expected_readings, "rows": rows}, indent=1))
    for row in rows:
        if row["outcome"] != "right":
            print(f"{row['outcome']:8} {row['intent']}\n         expected: {row['expected']}\n"
                  f"         got: {row.get('read_as') or row.get('said')}"
                  + (f"\n         the key: {row['said']}" if row["outcome"] == "key unread" else ""))
    print(f"\n{len(rows)} intents: {counts['right']} read right, {counts['refused']} refused "
          f"({sum(r['outcome'] == 'refused' and r['expected'] is None for r in rows)} of them meant to be), "
          f"{counts['misread']} misread, {counts['key unread']} with a key that does not parse")
    return 0

if __name__ == "__main__":
    sys.exit(main())

"""Which misreadings of past first measurements the every-word check alone would have refused (issue 17): each
misread row of the given results (bench/results/intents/NAME.json) checked against the wrong reading it got, its
spec form as its only spelling (generate/vocabulary.py `unexplained_words`).

    python bench/misread_words.py OUT.json sixth-1 seventh-1 eighth-1
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.generate.spec import parse_spec  # noqa: E402
from optiml_engine.generate.vocabulary import unexplained_words  # noqa: E402


def main() -> int:
    out, names = Path(sys.argv[1]), sys.argv[2:]
    rows = []
    for name in names:
        for row in json.loads((ROOT / "bench/results/intents" / f"{name}.json").read_text())["rows"]:
            if row["outcome"] == "misread":
                wrong = parse_spec(row["read_as"])
                left = unexplained_words(row["intent"], wrong, [row["read_as"]])
                rows.append({"run": name, "intent": row["intent"], "read_as": row["read_as"], "unexplained": left})
                print(f"{name:10} {'refused' if left else 'read   '} {left} | {row['intent'][:90]}")
    caught = sum(bool(r["unexplained"]) for r in rows)
    out.write_text(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                               "command": f"python bench/misread_words.py OUT.json {' '.join(names)}",
                               "misreadings": len(rows), "refused_by_the_word_check": caught, "rows": rows}, indent=1))
    print(f"\n{len(rows)} misreadings: {caught} hold a word their wrong reading does not explain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
